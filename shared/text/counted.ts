// A count with a noun that agrees with it, for every line a person reads: "1 canceled order", "2 canceled
// orders", "0 deliveries". One place, so no message says "1 orders" or hedges with "order(s)".

/** `counted(1, 'order')` is "1 order"; `counted(2, 'delivery', 'deliveries')` is "2 deliveries". */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
