export { currentPosition, previewSmart, smartPreview } from './smart-preview.js';
export { splitPreview } from './split-preview.js';
export type { SplitPreviewResult } from './split-preview.js';
