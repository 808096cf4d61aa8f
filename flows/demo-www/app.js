// A live view of the hub: lists parameters (GET /parameters), follows changes over /ws,
// and writes values back over the same socket. A token in the page URL
// (?access_token=…) is used for both, for hubs with authentication.
const token = new URLSearchParams(location.search).get('access_token');
const rows = document.getElementById('rows');
const link = document.getElementById('link');
const message = document.getElementById('message');
const filterInput = document.getElementById('filter');
const cells = new Map(); // address → { row, value, type, access }
let socket;

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
  if (cell.type === 'T') {
    cell.value.textContent = `fired ${new Date().toLocaleTimeString()}`;
  } else {
    cell.value.textContent = value;
    if (cell.input && document.activeElement !== cell.input) cell.input.value = value;
    if (cell.checkbox) cell.checkbox.checked = value === 'true';
  }
  cell.row.classList.add('flash');
  requestAnimationFrame(() => requestAnimationFrame(() => cell.row.classList.remove('flash')));
}

function write(address, value) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ p: address, v: value }));
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
    if (parameter.v === undefined) {
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
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set('access_token', token);
  socket = new WebSocket(url);
  socket.addEventListener('open', async () => {
    link.textContent = 'live';
    link.className = 'link up';
    message.textContent = '';
    delay = 500;
    try {
      render(await listParameters());
    } catch (error) {
      message.textContent = String(error);
    }
  });
  socket.addEventListener('message', (event) => {
    const data = JSON.parse(event.data);
    if (data.error) message.textContent = data.error;
    else show(data.p, data.v);
  });
  socket.addEventListener('close', () => {
    link.textContent = 'reconnecting…';
    link.className = 'link down';
    setTimeout(() => connect(Math.min(delay * 2, 10_000)), delay);
  });
}

filterInput.addEventListener('input', applyFilter);
connect();
