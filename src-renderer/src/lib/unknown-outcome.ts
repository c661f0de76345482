// The line a ticket mode shows for a send whose outcome is unknown. The core's message already says
// the outcome is unknown and that it is reconciling from the order book, so the line adds only what
// happened on this side (it once said "reconciling" twice).
export function unknownOutcomeText(message: string): string {
  return `Sent, no answer from the gateway: ${message}`;
}
