// @ts-check
// The operator console (R-U1): connections, the parameter tree with live values and typed
// editors, problems, and the hub's role in its redundancy group. Data comes from the public
// API only: GET /connections, /parameters, /problems, /rules, and one WebSocket; POST
// /failover when the operator takes over. This is the module the page loads: it renders the
// console's frame (app.js), and each view is a module of its own beside it.
import { render } from 'preact';
import { App } from './app.js';
import { html } from './html.js';

const app = document.getElementById('app');
if (!app) throw new Error('the page has no #app element');
render(html`<${App} />`, app);
