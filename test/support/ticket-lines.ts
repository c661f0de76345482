// The ticket's line for a placed order, as the e2e flows read it: it follows the order book, so it
// says Placed until the book has the order, then its state (open, complete, trigger pending, part
// filled), always ending "· order <id>".

/** The words before the id: `Placed · order`, `Open · order`, `Open · 4 of 10 filled · order`. */
export const ORDER_LINE = String.raw`(?:Placed|Open|Complete|Trigger pending)(?: · [\d,]+ of [\d,]+ filled)? · order`;

/** A placed order's whole line, its id the first group. */
export const PLACED_LINE = new RegExp(`^${ORDER_LINE} (\\S+)$`);
