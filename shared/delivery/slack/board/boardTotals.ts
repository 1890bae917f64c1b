// What a board shows, counted from its orders' cards (pure): orders to cook, how many canceled, item
// totals, flagged notes then the others, and after closing each item's change against closing.
import type { AtClosing, CardNote, ItemTotal, OrderCard } from './boardMessages.js';

export interface BoardTotals {
  orders: number;
  canceled: number;
  /** Most first, then by name. */
  items: ItemTotal[];
  /** Flagged notes first, then the others; each labelled with its order's reference. */
  notes: CardNote[];
}

export interface ItemDelta {
  name: string;
  from: number;
  to: number;
}

export function boardTotals(cards: readonly OrderCard[]): BoardTotals {
  const counted = cards.filter((card) => card.counted);
  const byName = new Map<string, number>();
  for (const card of counted) {
    for (const item of card.items) {
      if (item.quantity <= 0) continue;
      byName.set(item.name, (byName.get(item.name) ?? 0) + item.quantity);
    }
  }
  const items = [...byName].map(([name, quantity]) => ({ name, quantity }));
  items.sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name));
  const notes = counted
    .slice()
    .sort((a, b) => a.reference.localeCompare(b.reference))
    .flatMap((card) => card.notes);
  return {
    orders: counted.length,
    canceled: cards.filter((card) => card.canceled).length,
    items,
    notes: [...notes.filter((note) => note.flagged), ...notes.filter((note) => !note.flagged)],
  };
}

/** The items whose units differ from closing ("Lasagne 42 → 40"), by name. */
export function itemDeltas(atClosing: AtClosing, totals: BoardTotals): ItemDelta[] {
  const before = new Map(atClosing.items.map(({ name, quantity }) => [name, quantity]));
  const now = new Map(totals.items.map(({ name, quantity }) => [name, quantity]));
  const names = [...new Set([...before.keys(), ...now.keys()])].sort((a, b) => a.localeCompare(b));
  return names.flatMap((name) => {
    const from = before.get(name) ?? 0;
    const to = now.get(name) ?? 0;
    return from === to ? [] : [{ name, from, to }];
  });
}
