// How an order's payment method reads for people, the same in Slack and in e-mail: the API's value
// (`card`) as its label (`Card`). A method this version does not know is shown as the API names it.

const PAYMENT_METHOD_LABELS: ReadonlyMap<string, string> = new Map([
  ['cash', 'Cash'],
  ['card', 'Card'],
  ['credit', 'Credit'],
]);

export function paymentMethodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS.get(method) ?? method;
}
