// Small checks the market-data-*.test.ts files share: JSON number kinds and a search row's type.
import type { z } from 'zod';
import { SymbolRecord } from '../../../src-main/contract/index.js';

export type SearchRow = z.output<typeof SymbolRecord>;

export const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
export const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
