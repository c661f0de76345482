// A column of a book's table (components/Table.svelte): the header's words, the CSS grid width and
// which side its values sit on (numbers to the right, text to the left).
export interface TableColumn {
  id: string;
  label: string;
  /** A grid track: `72px`, `minmax(120px, 2fr)`. */
  width: string;
  align?: 'start' | 'end';
}
