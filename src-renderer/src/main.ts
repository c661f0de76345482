import { mount } from 'svelte';
import App from './App.svelte';
// Shared book-pane rules, loaded once for every pane (see styles/panes.css).
import './styles/panes.css';
// The books' and the focus area's tab bars (see styles/tabs.css).
import './styles/tabs.css';
// The screen-reader-only text rule (see styles/sr-only.css).
import './styles/sr-only.css';
// Key caps, figure fields, the modes' plain button and the filled send surfaces (styles/controls.css).
import './styles/controls.css';

const target = document.getElementById('app');
if (!target) throw new Error('OrderDesk: #app element missing from index.html');
export default mount(App, { target });
