// The conflicts dashboard: polls /v1/analytics/* every two seconds and draws with uPlot.
// Every chart keeps a data-points attribute (points drawn) and every number a data-value
// (the API's figure), so that a browser test can compare what is shown with what the API says.
"use strict";

const REFRESH_MS = 2000;
const INGEST_SAMPLES = 150;
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#475569"];
// Values every provider has, drawn even when zero so that a chart's lines do not come and go.
const KNOWN = {
  kind: ["CONCURRENT_HEADS", "EQUIVOCATION", "AUTHORITY_FORK"],
  loss: ["LOST", "DEGRADED_DURABILITY"],
  compaction: ["HELD_BOUND", "FORK_SWITCH", "SUPERSEDED_RETENTION"],
  rejection: [],
};

const charts = {};
const ingest = [];

async function json(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    throw new Error(url + " answered " + response.status);
  }
  return response.json();
}

function sum(series, field) {
  return series.reduce((total, s) => total + s.points.reduce((t, p) => t + p[field], 0), 0);
}

function eventsOf(series, value) {
  const s = series.find(x => x.value === value);
  return s ? sum([s], "events") : 0;
}

function showNumber(id, value) {
  const el = document.getElementById(id);
  el.dataset.value = String(value);
  el.textContent = value.toLocaleString("en-US");
}

/** Minute starts from the answer's range, zero-filled: [xs in seconds, values per series]. */
function minuteGrid(answer, values, field) {
  const minute = 60000;
  const first = Math.floor(answer.from / minute) * minute;
  const last = Math.floor(answer.to / minute) * minute;
  const xs = [];
  for (let t = first; t <= last; t += minute) {
    xs.push(t / 1000);
  }
  const index = new Map(xs.map((x, i) => [x * 1000, i]));
  const columns = values.map(value => {
    const ys = new Array(xs.length).fill(0);
    const s = answer.series.find(x => x.value === value);
    (s ? s.points : []).forEach(p => {
      const i = index.get(p.start);
      if (i !== undefined) {
        ys[i] = p[field];
      }
    });
    return ys;
  });
  return [xs, columns];
}

function valuesOf(by, answer) {
  const values = new Set(KNOWN[by]);
  answer.series.forEach(s => values.add(s.value));
  return values.size ? [...values] : ["none"];
}

function sourceLink(id, href) {
  document.querySelector("#" + id + " a.source").href = href;
}

/** Creates the chart, or recreates it when its series changed; then sets its data. */
function draw(id, labels, data, options) {
  const el = document.getElementById(id);
  const key = labels.join("|");
  let chart = charts[id];
  if (!chart || chart.key !== key) {
    if (chart) {
      chart.plot.destroy();
    }
    const series = [{}].concat(labels.map((label, i) => Object.assign(
        { label: label, stroke: COLORS[i % COLORS.length], width: 1.5, points: { size: 4 } }, (options.series || {})[label] || {})));
    const plot = new uPlot({
      width: Math.max(el.clientWidth - 16, 280),
      height: 200,
      series: series,
      scales: Object.assign({ x: { time: true } }, options.scales || {}),
      axes: options.axes || [{}, {}],
      cursor: { drag: { x: false, y: false } },
      legend: { live: false },
    }, data, el);
    chart = charts[id] = { plot: plot, key: key };
    if (options.onClick) {
      plot.over.addEventListener("click", () => {
        const i = plot.cursor.idx;
        if (i !== null && i !== undefined) {
          options.onClick(plot.data[0][i] * 1000);
        }
      });
    }
  } else {
    chart.plot.setData(data);
  }
  const drawn = data.slice(1).reduce((n, ys) => n + ys.filter(y => y !== null && y !== undefined).length, 0);
  el.dataset.points = String(drawn);
}

async function minuteChart(id, by, onClick) {
  const url = "/v1/analytics/conflicts?window=1m&by=" + by;
  const answer = await json(url);
  const values = valuesOf(by, answer);
  const [xs, columns] = minuteGrid(answer, values, "events");
  sourceLink(id, url + "&from=" + answer.from + "&to=" + answer.to);
  draw(id, values, [xs].concat(columns), { onClick: onClick });
  return answer;
}

function clockChart(kinds) {
  const values = valuesOf("kind", kinds);
  const [xs, events] = minuteGrid(kinds, values, "events");
  const [, sensitive] = minuteGrid(kinds, values, "clock_sensitive");
  const share = xs.map((_, i) => {
    const all = events.reduce((n, ys) => n + ys[i], 0);
    return all === 0 ? null : 100 * sensitive.reduce((n, ys) => n + ys[i], 0) / all;
  });
  sourceLink("chart-clock", "/v1/analytics/conflicts?window=1m&by=kind&from=" + kinds.from + "&to=" + kinds.to);
  // Points always: a share exists only in minutes with conflicts, and a lone minute has no line to draw.
  draw("chart-clock", ["clock sensitive %"], [xs, share], {
    series: { "clock sensitive %": { points: { show: true, size: 6, fill: COLORS[0] } } },
    scales: { y: { range: [0, 100] } },
  });
}

async function ingestChart() {
  const sample = await json("/v1/analytics/pipeline");
  ingest.push(sample);
  if (ingest.length > INGEST_SAMPLES) {
    ingest.shift();
  }
  const xs = ingest.map(s => s.time / 1000);
  const rate = ingest.map((s, i) => i === 0 ? null
      : Math.max(0, (s.verified_entries - ingest[i - 1].verified_entries) * 1000 / Math.max(1, s.time - ingest[i - 1].time)));
  const lag = ingest.map(s => s.input_lag);
  draw("chart-ingest", ["entries/s", "input lag"], [xs, rate, lag], {
    series: { "input lag": { scale: "lag" } },
    scales: { lag: {} },
    axes: [{}, { label: "entries/s" }, { scale: "lag", side: 1, label: "records", grid: { show: false } }],
  });
  return sample;
}

/** The identity a dimension's value belongs to (devices are identity/device_id), or null for paths. */
function identityOf(what, value) {
  if (what === "identities") {
    return value;
  }
  if (what === "devices" || what === "equivocators") {
    return value.substring(0, value.indexOf("/"));
  }
  return null;
}

function fillTable(id, what, ranked) {
  const el = document.getElementById(id);
  const body = el.querySelector("tbody");
  body.replaceChildren(...ranked.map(r => {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    const identity = identityOf(what, r.value);
    const label = identity === null ? document.createElement("span") : document.createElement("a");
    if (identity !== null) {
      label.href = "/v1/identities/" + encodeURIComponent(identity) + "/conflicts";
    }
    label.textContent = r.value;
    name.appendChild(label);
    const events = document.createElement("td");
    events.textContent = r.events.toLocaleString("en-US");
    const sensitive = document.createElement("td");
    sensitive.textContent = r.clock_sensitive ? r.clock_sensitive.toLocaleString("en-US") : "";
    row.append(name, events, sensitive);
    return row;
  }));
  el.dataset.rows = String(ranked.length);
}

async function topTable(id) {
  const what = document.getElementById(id).dataset.what;
  const answer = await json("/v1/analytics/top?window=1h&n=10&what=" + what);
  fillTable(id, what, answer.top);
}

async function drill(minuteStart) {
  const answer = await json("/v1/analytics/top?window=1m&n=20&what=identities&from=" + minuteStart + "&to=" + minuteStart);
  document.getElementById("drill-minute").textContent = new Date(minuteStart).toLocaleTimeString("en-GB");
  fillTable("drill", "identities", answer.top);
}

async function totals() {
  const [kinds, rejections, losses, compactions] = await Promise.all(
      ["kind", "rejection", "loss", "compaction"].map(by => json("/v1/analytics/conflicts?window=total&by=" + by)));
  showNumber("n-conflicts", sum(kinds.series, "events"));
  showNumber("n-clock-sensitive", sum(kinds.series, "clock_sensitive"));
  showNumber("n-equivocations", eventsOf(kinds.series, "EQUIVOCATION"));
  showNumber("n-authority-forks", eventsOf(kinds.series, "AUTHORITY_FORK"));
  showNumber("n-rejections", sum(rejections.series, "events"));
  showNumber("n-losses", eventsOf(losses.series, "LOST"));
  showNumber("n-degraded", eventsOf(losses.series, "DEGRADED_DURABILITY"));
  showNumber("n-compactions", sum(compactions.series, "events"));
  return kinds.instances;
}

async function refresh() {
  const status = document.getElementById("status");
  try {
    const [instances, kinds, pipeline] = await Promise.all([
      totals(),
      minuteChart("chart-kinds", "kind", drill),
      ingestChart(),
      minuteChart("chart-rejections", "rejection"),
      minuteChart("chart-losses", "loss"),
      minuteChart("chart-compactions", "compaction"),
      topTable("top-identities"),
      topTable("top-paths"),
      topTable("top-devices"),
      topTable("top-equivocators"),
    ]);
    clockChart(kinds);
    showNumber("n-verified", pipeline.verified_entries);
    showNumber("n-lag", pipeline.input_lag);
    status.textContent = "updated " + new Date(pipeline.time).toLocaleTimeString("en-GB") + " · "
        + instances + (instances === 1 ? " instance" : " instances");
    status.classList.remove("failing");
  } catch (e) {
    status.textContent = "not updated: " + e.message + " (retrying)";
    status.classList.add("failing");
  } finally {
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
    setTimeout(refresh, REFRESH_MS);
  }
}

window.addEventListener("resize", () => Object.keys(charts).forEach(id => {
  const el = document.getElementById(id);
  charts[id].plot.setSize({ width: Math.max(el.clientWidth - 16, 280), height: 200 });
}));

refresh();
