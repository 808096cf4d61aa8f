// A live view of the hub, built on the public API only — copy it to start a page of your own:
// - GET /parameters lists the parameters; /ws sends their changes and takes writes {p, v}.
// - /ws?events=1 also says {"event":"parameters"} when parameters appear or go (a reload):
//   the page lists them again.
// - /ws?resume=1 lets the page come back after a cut (a laptop that slept) to exactly what it
//   missed, trigger fires included: keep the token of the first message and the last "seq",
//   and reconnect with ?resume=<token>&seq=<n>. {"event":"resync"} says that was too late:
//   a fresh snapshot follows.
// - The socket streams only the addresses the rest-api's wsFilters let through; rows it does
//   not stream are refreshed from GET /parameters every few seconds, marked "polled".
// - Open it with ?access_token=<token> once: the hub signs the browser in with a cookie that
//   both the requests and the socket carry, and takes the token out of the address bar.
const token = new URLSearchParams(location.search).get('access_token');
const POLL_MS = 2000;
const rows = document.getElementById('rows');
const link = document.getElementById('link');
const message = document.getElementById('message');
const filterInput = document.getElementById('filter');
const cells = new Map(); // address → { row, value, type, access }
let socket;
let streamed = new Set(); // addresses the socket sent since it opened
let pollTimer;
let resume; // { token, seq? }: where to come back to
const fired = new Map(); // trigger address → when it last fired, shown again when the rows are listed anew

async function listParameters() {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const response = await fetch('/parameters', { headers });
  if (!response.ok) throw new Error(`GET /parameters: ${response.status} ${await response.text()}`);
  return response.json();
}

function show(address, value) {
  const cell = cells.get(address);
  if (!cell) return;
  cell.value.classList.remove('unknown');
  if (cell.lastError && message.textContent === cell.lastError) message.textContent = ''; // a later success clears its error
  cell.lastError = undefined;
  if (cell.type === 'T') {
    fired.set(address, `fired ${new Date().toLocaleTimeString()}`);
    cell.value.textContent = fired.get(address);
  } else {
    cell.value.textContent = value;
    if (cell.input && document.activeElement !== cell.input) cell.input.value = value;
    if (cell.checkbox) cell.checkbox.checked = value === 'true';
  }
  cell.row.classList.add('flash');
  requestAnimationFrame(() => requestAnimationFrame(() => cell.row.classList.remove('flash')));
}

function write(address, value) {
  if (socket?.readyState !== WebSocket.OPEN) {
    message.textContent = `not connected: ${address} was not written`;
    return;
  }
  message.textContent = '';
  socket.send(JSON.stringify({ p: address, v: value }));
}

/**
 * Rows the socket does not stream (wsFilters keep them off it): refreshed from GET /parameters
 * and marked "polled". A row is known to be kept off only once it has a value the socket did
 * not send (its snapshot sends every known value it streams); one without a value yet is not
 * marked.
 */
async function poll() {
  if ([...cells].every(([address, cell]) => streamed.has(address) || cell.type === 'T')) return;
  for (const parameter of await listParameters()) {
    const cell = cells.get(parameter.p);
    if (!cell || streamed.has(parameter.p) || cell.type === 'T') continue;
    cell.row.classList.toggle('polled', parameter.v !== undefined);
    if (parameter.v !== undefined && cell.value.textContent !== String(parameter.v)) show(parameter.p, parameter.v);
  }
}

function editor(parameter, cell) {
  const td = document.createElement('td');
  if (parameter.access === 'read-only') return td;
  if (parameter.type === 'T') {
    const button = document.createElement('button');
    button.textContent = 'fire';
    button.addEventListener('click', () => write(parameter.p, null));
    td.append(button);
  } else if (parameter.type === 'B') {
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    checkbox.checked = parameter.v === true;
    checkbox.setAttribute('aria-label', `set ${parameter.p}`);
    checkbox.addEventListener('change', () => write(parameter.p, checkbox.checked));
    cell.checkbox = checkbox;
    td.append(checkbox);
  } else {
    const form = document.createElement('form');
    const input = document.createElement('input');
    input.className = 'edit';
    input.name = 'value';
    input.value = parameter.v === undefined ? '' : String(parameter.v);
    input.setAttribute('aria-label', `new value for ${parameter.p}`);
    const button = document.createElement('button');
    button.textContent = 'set';
    form.append(input, button);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      write(parameter.p, input.value);
    });
    cell.input = input;
    td.append(form);
  }
  return td;
}

function render(parameters) {
  rows.replaceChildren();
  cells.clear();
  for (const parameter of parameters) {
    const row = document.createElement('tr');
    row.dataset.address = parameter.p;
    const value = document.createElement('td');
    value.className = 'value';
    if (parameter.type === 'T' && fired.has(parameter.p)) {
      value.textContent = fired.get(parameter.p);
    } else if (parameter.v === undefined) {
      value.textContent = parameter.type === 'T' ? '—' : 'unknown';
      value.classList.add('unknown');
    } else {
      value.textContent = String(parameter.v);
    }
    const cell = { row, value, type: parameter.type, access: parameter.access };
    const address = document.createElement('td');
    address.className = 'address';
    address.textContent = parameter.p;
    const type = document.createElement('td');
    type.textContent = parameter.type;
    const access = document.createElement('td');
    access.textContent = parameter.access;
    row.append(address, type, access, value, editor(parameter, cell));
    rows.append(row);
    cells.set(parameter.p, cell);
  }
  applyFilter();
}

function applyFilter() {
  let pattern;
  try {
    pattern = new RegExp(filterInput.value);
  } catch {
    return;
  }
  for (const [address, { row }] of cells) row.hidden = !pattern.test(address);
}

function connect(delay = 500) {
  const url = new URL('/ws?events=1', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set('access_token', token);
  url.searchParams.set('resume', resume?.token ?? '1');
  if (resume?.seq !== undefined) url.searchParams.set('seq', resume.seq);
  socket = new WebSocket(url);
  socket.addEventListener('open', async () => {
    link.textContent = 'live';
    link.className = 'link up';
    message.textContent = '';
    delay = 500;
    await relist();
    clearInterval(pollTimer);
    pollTimer = setInterval(() => poll().catch((error) => (message.textContent = String(error))), POLL_MS);
  });
  socket.addEventListener('message', (event) => {
    const data = JSON.parse(event.data);
    // The greeting: a fresh stream (a snapshot follows) unless it is where the page left off.
    if (data.resume !== undefined) {
      if (data.seq !== resume?.seq) streamed = new Set();
      resume = { token: data.resume, seq: data.seq === resume?.seq ? data.seq : undefined };
      return;
    }
    if (data.seq !== undefined && resume) resume.seq = data.seq;
    if (data.p === undefined && data.seq !== undefined) return; // the snapshot's end
    if (data.event === 'resync') return;
    if (data.event === 'parameters') return void relist();
    if (data.event) return;
    if (data.error) {
      message.textContent = data.error;
      const cell = cells.get(data.p);
      if (cell) cell.lastError = data.error;
      return;
    }
    streamed.add(data.p);
    cells.get(data.p)?.row.classList.remove('polled');
    show(data.p, data.v);
  });
  socket.addEventListener('close', () => {
    clearInterval(pollTimer);
    link.textContent = 'reconnecting…';
    link.className = 'link down';
    setTimeout(() => connect(Math.min(delay * 2, 10_000)), delay);
  });
}

async function relist() {
  try {
    render(await listParameters());
  } catch (error) {
    message.textContent = String(error);
  }
}

filterInput.addEventListener('input', applyFilter);
connect();
