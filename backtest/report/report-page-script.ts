/**
 * The script of `report.html` (plain browser JavaScript, no modules, run after uPlot's inlined bundle). It reads
 * the report's series from the page's `<script type="application/json" id="report-data">` and draws the charts
 * with uPlot: equity (with the starting balances held and never traded as a dashed line), drawdown, position per
 * market, and per market the price with our buys and sells on it.
 * Each chart container gets `data-drawn="1"` once drawn, which the browser test waits for.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];
  function width(el) { return Math.max(320, (el.clientWidth || 900) - 8); }
  function secs(ms) { return ms / 1000; }
  function num(s) { return s === null || s === undefined ? null : Number(s); }
  function chart(id, title, series, columns, extra) {
    var el = document.getElementById(id);
    if (!el) return;
    if (columns[0].length === 0) { el.textContent = 'no data'; el.setAttribute('data-drawn', '1'); return; }
    var opts = Object.assign({
      title: title, width: width(el), height: 260, series: [{}].concat(series),
      scales: { x: { time: true, range: [secs(data.from), secs(data.to)] } },
      // The value axis grows with its longest label, so 132,449.15 is not cut to 2,449.15.
      axes: [{}, { size: function (u, values) { return values ? 24 + 7.5 * Math.max.apply(null, values.map(function (v) { return String(v).length; }).concat([1])) : 50; } }]
    }, extra || {});
    var u = new uPlot(opts, columns, el);
    charts.push({ u: u, el: el });
    el.setAttribute('data-drawn', '1');
  }
  var charts = [];
  var eq = data.series.equity;
  var hold = data.series.hold || [];
  var eqSeries = [{ label: 'equity', stroke: COLORS[0], width: 1.5 }];
  var eqColumns = [eq.map(function (p) { return secs(p[0]); }), eq.map(function (p) { return num(p[1]); })];
  // The starting balances held and never traded, on the same time axis: the line the equity is read against.
  if (hold.length === eq.length && hold.some(function (p) { return p[1] !== null; })) {
    eqSeries.push({ label: 'holding the start balances', stroke: '#888', width: 1, dash: [5, 4] });
    eqColumns.push(hold.map(function (p) { return num(p[1]); }));
  }
  chart('chart-equity', 'Equity (' + data.valuationCurrency + ')', eqSeries, eqColumns);
  var dd = data.series.drawdown;
  chart('chart-drawdown', 'Drawdown (% below peak)', [{ label: 'drawdown %', stroke: '#d62728', fill: 'rgba(214,39,40,0.15)', width: 1 }],
    [dd.map(function (p) { return secs(p[0]); }), dd.map(function (p) { return -100 * p[1]; })]);
  var markets = Object.keys(data.series.positions);
  if (markets.length > 0) {
    var xs = data.series.positions[markets[0]].map(function (p) { return secs(p[0]); });
    var same = markets.every(function (m) { return data.series.positions[m].length === xs.length; });
    var pm = same ? markets : [markets[0]];
    chart('chart-position', 'Position (base currency, net of start)', pm.map(function (m, i) { return { label: m, stroke: COLORS[i % COLORS.length], width: 1.5, paths: uPlot.paths.stepped({ align: 1 }) }; }),
      [xs].concat(pm.map(function (m) { return data.series.positions[m].map(function (p) { return num(p[1]); }); })));
  }
  Object.keys(data.fillsByMarket).forEach(function (m, i) {
    var prices = data.series.prices[m] || [];
    var fills = data.fillsByMarket[m];
    var rows = [];
    prices.forEach(function (p) { rows.push([p[0], num(p[1]), null, null]); });
    fills.forEach(function (f) { rows.push([f[0], null, f[1] === 'BUY' ? num(f[2]) : null, f[1] === 'SELL' ? num(f[2]) : null]); });
    rows.sort(function (a, b) { return a[0] - b[0]; });
    var cols = [[], [], [], []];
    rows.forEach(function (r) { cols[0].push(secs(r[0])); cols[1].push(r[1]); cols[2].push(r[2]); cols[3].push(r[3]); });
    var noLine = function () { return null; };
    chart('chart-price-' + i, m + ': price and our fills', [
      { label: 'price', stroke: '#555', width: 1, spanGaps: true },
      { label: 'buy', stroke: '#2ca02c', paths: noLine, points: { show: true, size: 8, fill: '#2ca02c', stroke: '#2ca02c' } },
      { label: 'sell', stroke: '#d62728', paths: noLine, points: { show: true, size: 8, fill: '#d62728', stroke: '#d62728' } }
    ], cols);
  });
  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.u.setSize({ width: width(c.el), height: 260 }); });
  });
})();
`;
