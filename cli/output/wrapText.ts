// A table cell's text wrapped to a column's width: at spaces, each of its own lines kept apart, and a word
// longer than the column broken across lines rather than cut off.
import { charWidth, displayWidth } from './displayWidth.js';

export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter((part) => part !== '')) {
      for (const piece of breakWord(word, width)) {
        if (line === '') line = piece;
        else if (displayWidth(line) + 1 + displayWidth(piece) <= width) line += ` ${piece}`;
        else {
          lines.push(line);
          line = piece;
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

/** The longest word of a text: what a column needs so that no word of it is broken. */
export function longestWord(text: string): number {
  return Math.max(0, ...text.split(/\s+/).map(displayWidth));
}

function breakWord(word: string, width: number): string[] {
  if (displayWidth(word) <= width) return [word];
  const pieces: string[] = [];
  let piece = '';
  let pieceWidth = 0;
  for (const char of word) {
    const w = charWidth(char);
    if (pieceWidth + w > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      pieceWidth = 0;
    }
    piece += char;
    pieceWidth += w;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}
