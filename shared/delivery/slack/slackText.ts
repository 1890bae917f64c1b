// Text as Slack takes it: mrkdwn escaping of the three control characters, and cutting to a length limit
// without breaking an escape sequence or a surrogate pair. Order data is user-typed (customer and item
// names), so every value goes through here before it reaches a block.

export const ELLIPSIS = '…';

const MRKDWN_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** `&`, `<` and `>` escaped, so a name like "<!channel>" is shown, not acted on. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (char) => MRKDWN_ESCAPES[char] ?? char);
}

/** Runs of whitespace, line breaks included, as one space: a value must not break the layout around it. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `text` escaped for mrkdwn and at most `max` UTF-16 code units long (Slack's limits are at least that
 * generous), ending in "…" when cut. Cutting happens between source characters, never inside `&amp;`.
 */
export function fitMrkdwn(text: string, max: number): string {
  return fitRendered(text, max, escapeMrkdwn);
}

/** `text` at most `max` UTF-16 code units long, ending in "…" when cut; for plain_text objects. */
export function fitPlain(text: string, max: number): string {
  return fitRendered(text, max, (char) => char);
}

function fitRendered(text: string, max: number, render: (char: string) => string): string {
  const whole = render(text);
  if (whole.length <= max) return whole;
  let kept = '';
  // for…of walks code points, so an emoji is kept or dropped whole.
  for (const char of text) {
    const piece = render(char);
    if (kept.length + piece.length + ELLIPSIS.length > max) break;
    kept += piece;
  }
  return kept + ELLIPSIS;
}
