/**
 * The matrix page's inline script: the filters and the details of a cell. Plain browser
 * JavaScript kept as a string (a bundled function's source could carry the bundler's helpers).
 * It never writes markup from data: every value reaches the page through textContent, so
 * whatever a target answered shows as text. Filtering touches only the rows whose visibility
 * changes, which keeps 1,100 rows x 5 columns responsive.
 */
export const MATRIX_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = null;
  function model() {
    if (!data) data = JSON.parse(document.getElementById('matrix-data').textContent);
    return data;
  }
  var form = document.getElementById('filters');
  var groups = Array.prototype.slice.call(document.querySelectorAll('#rows tbody.group'));
  var rows = [];
  groups.forEach(function (g) {
    var trs = g.querySelectorAll('tr.req');
    g._rows = [];
    for (var i = 0; i < trs.length; i++) {
      var tr = trs[i];
      var row = {
        tr: tr,
        group: g,
        area: tr.getAttribute('data-area'),
        level: tr.getAttribute('data-level'),
        classes: tr.getAttribute('data-classes').split(' '),
        disagree: tr.hasAttribute('data-disagree'),
        allFail: tr.hasAttribute('data-allfail'),
        text: (tr.getAttribute('data-id') + ' ' + tr.querySelector('.req-text').textContent).toLowerCase(),
        shown: true
      };
      rows.push(row);
      g._rows.push(row);
    }
  });
  var shownOut = document.getElementById('shown');
  // The column heads stick under the filter bar, whose height depends on the window's width.
  function barHeight() {
    document.documentElement.style.setProperty('--bar', form.offsetHeight + 'px');
  }
  window.addEventListener('resize', barHeight);
  barHeight();

  function value(name) {
    var el = form.elements[name];
    return el.type === 'checkbox' ? el.checked : el.value;
  }

  function apply() {
    var area = value('area'), level = value('level'), cls = value('cls'), col = value('col');
    var text = value('text').trim().toLowerCase();
    var disagree = value('disagree'), allFail = value('allfail');
    var count = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var show =
        (!area || r.area === area) &&
        (!level || r.level === level) &&
        (!cls || (col === '' ? r.classes.indexOf(cls) !== -1 : r.classes[+col] === cls)) &&
        (!disagree || r.disagree) &&
        (!allFail || r.allFail) &&
        (!text || r.text.indexOf(text) !== -1);
      if (show !== r.shown) {
        r.shown = show;
        r.tr.hidden = !show;
      }
      if (show) count++;
    }
    for (var j = 0; j < groups.length; j++) {
      var g = groups[j];
      var any = false;
      for (var k = 0; k < g._rows.length && !any; k++) any = g._rows[k].shown;
      if (g.hidden === any) g.hidden = !any;
    }
    shownOut.textContent = count + ' of ' + rows.length + ' requirements';
  }

  var pending = 0;
  function schedule() {
    if (pending) return;
    pending = requestAnimationFrame(function () {
      pending = 0;
      apply();
    });
  }
  form.addEventListener('input', schedule);
  form.addEventListener('change', schedule);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.addEventListener('reset', function () { setTimeout(apply, 0); });

  // The details of a cell.
  var panel = document.getElementById('detail');
  var body = document.getElementById('detail-body');
  var title = document.getElementById('detail-title');

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function pretty(v) {
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  }
  function exchange(x) {
    var box = el('div', 'exchange');
    box.appendChild(el('h5', null, 'failing exchange'));
    box.appendChild(el('code', 'line', (x.method || '') + ' ' + (x.url || '') + ' \u2192 ' + (x.status === undefined ? '?' : x.status)));
    var cols = el('div', 'cols');
    var req = el('div');
    req.appendChild(el('h5', null, 'request'));
    if (x.requestHeaders) req.appendChild(el('pre', null, pretty(x.requestHeaders)));
    if (x.requestBody !== undefined) req.appendChild(el('pre', null, pretty(x.requestBody)));
    var res = el('div');
    res.appendChild(el('h5', null, 'response'));
    if (x.responseHeaders) res.appendChild(el('pre', null, pretty(x.responseHeaders)));
    if (x.responseBody !== undefined) res.appendChild(el('pre', null, pretty(x.responseBody)));
    cols.appendChild(req);
    cols.appendChild(res);
    box.appendChild(cols);
    return box;
  }

  function open(r, c, button) {
    var m = model();
    var row = m.rows[r], cell = row.cells[c], column = m.columns[c];
    title.textContent = column.name + (column.version ? ' ' + column.version : '') + ' \u00b7 ' + row.id;
    body.textContent = '';
    var head = el('p');
    head.appendChild(el('span', 'badge v-' + cell.cls, m.labels[cell.cls]));
    head.appendChild(document.createTextNode(' ' + row.level + (row.kind !== 'rule' ? ' \u00b7 ' + row.kind : '') + ' \u00b7 status ' + cell.status));
    body.appendChild(head);
    if (row.statements && row.statements.length) {
      row.statements.forEach(function (s) { body.appendChild(el('blockquote', null, s.quote)); });
    }
    body.appendChild(el('p', row.statements && row.statements.length ? 'gist' : 'req', row.text));
    if (cell.reason !== undefined) body.appendChild(el('p', 'muted', m.reasons[cell.reason]));
    if (!cell.tests.length && cell.reason === undefined) body.appendChild(el('p', 'muted', 'No test of this run names it.'));
    cell.tests.forEach(function (t) {
      var box = el('div', 'test s-' + t.status);
      var h = el('h4', null, t.title);
      box.appendChild(h);
      box.appendChild(el('p', 'muted', t.status + (t.verdict ? ' (' + t.verdict + ')' : '') + ' \u00b7 ' + t.file));
      if (t.message) box.appendChild(el('pre', 'msg', t.message));
      if (t.curl) {
        box.appendChild(el('h5', null, 'reproduce'));
        box.appendChild(el('pre', 'curl', t.curl));
      }
      if (t.exchange) box.appendChild(exchange(t.exchange));
      body.appendChild(box);
    });
    panel.hidden = false;
    panel._from = button;
    document.getElementById('detail-close').focus();
  }
  function close() {
    panel.hidden = true;
    if (panel._from) panel._from.focus();
  }

  document.getElementById('rows').addEventListener('click', function (e) {
    var b = e.target.closest ? e.target.closest('button[data-c]') : null;
    if (!b) return;
    var tr = b.closest('tr.req');
    open(+tr.getAttribute('data-i'), +b.getAttribute('data-c'), b);
  });
  document.getElementById('detail-close').addEventListener('click', close);
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && !panel.hidden) close();
  });
  apply();
})();
`;
