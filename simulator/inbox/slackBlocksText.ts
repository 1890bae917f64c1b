// A Slack message's Block Kit layout as the plain lines a channel would show: the header, each section's
// text, fields as "Label: value", context in small print. The inbox receives whatever a sender posts, so
// anything it does not know is named rather than dropped, and nothing here throws.

const MRKDWN_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** One line per line of text in the blocks, in order; empty when `blocks` is not a list. */
export function slackBlocksText(blocks: unknown): string[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block) => blockLines(block));
}

function blockLines(block: unknown): string[] {
  const type = field(block, 'type');
  switch (type) {
    case 'header':
      return textLines(field(block, 'text'));
    case 'section': {
      const fields = field(block, 'fields');
      return [
        ...textLines(field(block, 'text')),
        ...(Array.isArray(fields) ? alignFields(fields.map(fieldPair)) : []),
      ];
    }
    case 'context': {
      const elements = field(block, 'elements');
      if (!Array.isArray(elements)) return [];
      return [elements.flatMap((element) => textLines(element)).join('  ')];
    }
    case 'divider':
      return ['―――'];
    default:
      return [`[${typeof type === 'string' ? type : 'unknown'} block]`];
  }
}

/** A text object (plain_text or mrkdwn) as lines, with mrkdwn's markup and escapes undone. */
function textLines(text: unknown): string[] {
  const value = field(text, 'text');
  if (typeof value !== 'string') return [];
  const plain = field(text, 'type') === 'mrkdwn' ? fromMrkdwn(value) : value;
  return plain.split('\n');
}

/** `*Reference*\nNS-1042` becomes a label and a value; a field of one line is all value. */
function fieldPair(text: unknown): [string, string] {
  const [first = '', ...rest] = textLines(text);
  return rest.length === 0 ? ['', first] : [first, rest.join(' ')];
}

function alignFields(pairs: Array<[string, string]>): string[] {
  const width = Math.max(0, ...pairs.map(([label]) => label.length)) + 2;
  return pairs.map(([label, value]) => (label ? `${`${label}:`.padEnd(width)}${value}` : value));
}

function fromMrkdwn(text: string): string {
  return text
    .replace(/(^|\s)[*_~]([^*_~\n]+)[*_~](?=\s|$)/g, '$1$2')
    .replace(/&(amp|lt|gt);/g, (entity) => MRKDWN_ENTITIES[entity] ?? entity);
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
