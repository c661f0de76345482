// The desk's colour theme (settings.shell.theme): dark by default, light for bright rooms. The tokens
// live on :root (styles/theme-dark.css holds the dark ones, styles/theme-light.css the light theme's
// overrides); this sets `data-theme` on <html> from the saved settings and follows every change.
import type { BridgeApi, Settings } from '@contract';
import '../styles/theme-dark.css';
import '../styles/theme-light.css';

export type Theme = Settings['shell']['theme'];

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (root.dataset['theme'] !== theme) root.dataset['theme'] = theme;
}

/** Applies the saved theme now and on every settings.changed (newest seq only); returns the stop. */
export function followTheme(bridge: BridgeApi, root?: HTMLElement): () => void {
  let seq = 0;
  const off = bridge.on('settings.changed', (e) => {
    if (e.seq <= seq) return;
    seq = e.seq;
    applyTheme(e.settings.shell.theme, root);
  });
  void bridge.invoke('settings.get').then((r) => {
    if (r.ok && seq === 0) applyTheme(r.value.shell.theme, root);
  });
  return off;
}
