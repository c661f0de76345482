// One entry of a multiquotes answer: the quote, or nothing when the gateway named an error for it.
import type { MultiQuotesResponse, QuoteData } from '@contract';

/** The union's loose members narrow to `{}` on `'data' in r`: this is the one place that reads it. */
export function quoteOf(r: MultiQuotesResponse['results'][number]): QuoteData | undefined {
  return 'data' in r && r.data ? (r as { data: QuoteData }).data : undefined;
}
