// A piece of someone else's text (a server's answer, a library's error message) fit to quote in a one-line
// reason: on one line, and cut short. Redact it first (redactSecrets.ts): this only shapes it.

/** The text with every run of whitespace and control characters made one space, at most `maxChars` long. */
export function excerpt(text: string, maxChars: number): string {
  const line = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
}
