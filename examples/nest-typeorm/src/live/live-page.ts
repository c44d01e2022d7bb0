/** The live books page: plain HTML and a script that reads `/books` once, then applies each event as it comes. */
export const LIVE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Svc bookstore, live</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; color: #222; }
  h1 { font-size: 1.4rem; margin-bottom: .25rem; }
  #status { font-size: .85rem; color: #777; }
  #status.live { color: #1a7f37; }
  ul { padding: 0; list-style: none; }
  li { padding: .4rem .6rem; border-bottom: 1px solid #eee; display: flex; justify-content: space-between; }
  li.fresh { animation: flash 1.5s ease-out; }
  .pages { color: #777; font-size: .85rem; }
  @keyframes flash { from { background: #fff3b0; } to { background: transparent; } }
</style>
</head>
<body>
<h1>Books</h1>
<p id="status">connecting…</p>
<ul id="books"></ul>
<script>
  const list = document.getElementById('books');
  const status = document.getElementById('status');
  const rows = new Map();

  function render(book, fresh) {
    let li = rows.get(book.id);
    if (!li) {
      li = document.createElement('li');
      li.dataset.id = book.id;
      rows.set(book.id, li);
    }
    li.textContent = '';
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = book.title;
    const pages = document.createElement('span');
    pages.className = 'pages';
    pages.textContent = book.pages + ' pages';
    li.append(title, pages);
    const after = [...list.children].find((other) => other !== li && other.querySelector('.title').textContent.localeCompare(book.title) > 0);
    list.insertBefore(li, after ?? null);
    if (fresh) { li.classList.remove('fresh'); void li.offsetWidth; li.classList.add('fresh'); }
  }

  function remove(id) {
    rows.get(id)?.remove();
    rows.delete(id);
  }

  async function load() {
    const res = await fetch('/books?limit=50&sort=title&select=id,title,pages');
    const page = await res.json();
    list.textContent = '';
    rows.clear();
    for (const book of page.items) render(book, false);
  }

  function listen() {
    const events = new EventSource('/books/events');
    events.onopen = () => { status.textContent = 'live'; status.className = 'live'; };
    events.onerror = () => { status.textContent = 'reconnecting…'; status.className = ''; };
    for (const type of ['created', 'updated', 'patched', 'restored']) {
      events.addEventListener(type, (message) => render(JSON.parse(message.data).item, true));
    }
    events.addEventListener('deleted', (message) => remove(JSON.parse(message.data).id));
    // Events were missed beyond what the server keeps: read the list again.
    events.addEventListener('reset', () => load());
  }

  load().then(listen);
</script>
</body>
</html>
`;
