// paperkg map: concepts as nodes, clusters as colours, papers in a side panel.
// Every string from the input reaches the page through textContent (or a checked
// http(s) href), never innerHTML, so a title holding markup stays text.
(function () {
  "use strict";
  var timings = { start: performance.now() };
  var data = JSON.parse(document.getElementById("pk-data").textContent);
  var view = (window.paperkgMap = { readyAt: null, timings: timings, shown: null });

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined && text !== null) el.textContent = String(text);
    return el;
  }
  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }
  function short(text, limit) {
    return text.length <= limit ? text : text.slice(0, limit - 1) + "\u2026";
  }

  // --- colours ------------------------------------------------------------------------
  var YEAR_STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  function yearColor(year) {
    var range = data.meanYears;
    if (year === null || !range) return data.other;
    var t = range[1] > range[0] ? (year - range[0]) / (range[1] - range[0]) : 0.5;
    var f = Math.max(0, Math.min(1, t)) * (YEAR_STOPS.length - 1);
    var i = Math.min(Math.floor(f), YEAR_STOPS.length - 2);
    var a = YEAR_STOPS[i], b = YEAR_STOPS[i + 1], u = f - i;
    return "rgb(" + [0, 1, 2].map(function (k) {
      return Math.round(a[k] + (b[k] - a[k]) * u);
    }).join(",") + ")";
  }
  var colourMode = "cluster";
  function fill(n) {
    if (colourMode === "year") return yearColor(n.year);
    return n.cluster >= 0 ? data.clusters[n.cluster].color : data.other;
  }
  function nodeColor(n) {
    var c = fill(n);
    return { background: c, border: "#ffffff", highlight: { background: c, border: "#111111" },
             hover: { background: c, border: "#111111" } };
  }

  // --- the network --------------------------------------------------------------------
  var top = 1;
  data.links.forEach(function (l) { top = Math.max(top, l[2]); });
  var nodes = new vis.DataSet(data.nodes.map(function (n) {
    return {
      id: n.id, x: n.x, y: n.y, shape: n.shape, size: n.size,
      label: short(n.name, 40),
      title: n.name + "\n" + n.label + " \u00b7 " + plural(n.papers, "paper"),
      font: { size: n.font, color: "#1f2933", strokeWidth: 4, strokeColor: "#ffffff" },
      color: nodeColor(n), borderWidth: 1
    };
  }));
  var edges = new vis.DataSet(data.links.map(function (l, k) {
    return {
      id: k, from: l[0], to: l[1],
      width: 0.4 + 3 * Math.sqrt(l[2] / top),
      title: "Used together by " + plural(l[2], "paper") + " (" + l[3].toFixed(1) + "\u00d7 chance)"
    };
  }));
  var many = data.links.length > 3000;
  var options = {
    autoResize: true,
    physics: { enabled: false },
    layout: { improvedLayout: false, randomSeed: 0 },
    nodes: { scaling: { label: { drawThreshold: data.labelDrawPx, maxVisible: 30 } } },
    edges: { smooth: false, color: { color: "#9aa5b1", highlight: "#52606d", opacity: 0.35 },
             selectionWidth: 1.5 },
    interaction: { hover: false, tooltipDelay: 200, hideEdgesOnDrag: many, hideEdgesOnZoom: many,
                   multiselect: false }
  };
  var container = document.getElementById("pk-network");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, options);
  timings.network = performance.now();
  view.network = network;
  view.nodes = nodes;
  network.once("afterDrawing", function () {
    view.readyAt = performance.now();
    document.body.setAttribute("data-ready", "true");
  });

  // --- the side panel -----------------------------------------------------------------
  var panel = document.getElementById("pk-panel");
  var body = document.getElementById("pk-panel-body");
  document.getElementById("pk-close").addEventListener("click", function () {
    panel.hidden = true;
    view.shown = null;
    network.unselectAll();
  });
  function conceptButton(i, extra) {
    var n = data.nodes[i];
    var b = element("button", "pk-link", n.name + (extra ? " " + extra : ""));
    b.type = "button";
    b.title = n.label + " \u00b7 " + plural(n.papers, "paper");
    b.addEventListener("click", function () { focusConcept(i); });
    return b;
  }
  function paperTitle(p) {
    var paper = data.papers[p];
    var b = element("button", "pk-link", paper[0]);
    b.type = "button";
    b.addEventListener("click", function () { showPaper(p); });
    return b;
  }
  function paperMeta(p, kind) {
    var paper = data.papers[p];
    var bits = [];
    if (paper[1] !== null) bits.push(String(paper[1]));
    if (paper[2]) bits.push(paper[2]);
    if (kind !== undefined) bits.push(data.edgeTypes[kind]);
    var meta = element("div", "pk-meta", bits.join(" \u00b7 "));
    if (paper[3] && /^https?:\/\//.test(paper[3])) {
      var a = element("a", null, "link");
      a.href = paper[3];
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      meta.appendChild(document.createTextNode(bits.length ? " \u00b7 " : ""));
      meta.appendChild(a);
    }
    return meta;
  }
  function showConcept(i) {
    var n = data.nodes[i];
    body.replaceChildren();
    body.appendChild(element("h2", null, n.name));
    var sub = n.label + " \u00b7 " + plural(n.papers, "paper");
    if (n.proposed) sub += " \u00b7 proposed by " + plural(n.proposed, "paper");
    if (n.year !== null) sub += " \u00b7 mean year " + n.year.toFixed(1);
    body.appendChild(element("div", "pk-meta", sub));
    if (n.cluster >= 0) {
      var c = data.clusters[n.cluster];
      var line = element("div", "pk-meta");
      var sw = element("span", "pk-swatch");
      sw.style.background = c.color;
      line.appendChild(sw);
      line.appendChild(document.createTextNode(" cluster: " + c.name));
      body.appendChild(line);
    }
    if (n.aliases.length) {
      body.appendChild(element("h3", null, "Also written"));
      body.appendChild(element("div", null, n.aliases.join("; ")));
    }
    var proposers = n.list.filter(function (r) { return data.edgeTypes[r[1]] === "PROPOSES"; });
    if (proposers.length) {
      body.appendChild(element("h3", null, "Proposed by"));
      var pl = element("ul");
      proposers.forEach(function (r) {
        var li = element("li");
        li.appendChild(paperTitle(r[0]));
        li.appendChild(paperMeta(r[0]));
        pl.appendChild(li);
      });
      body.appendChild(pl);
    }
    if (n.near.length) {
      body.appendChild(element("h3", null, "Used most with"));
      var chips = element("div");
      n.near.forEach(function (pair) {
        var span = element("span", "pk-chip");
        span.appendChild(conceptButton(pair[0], "(" + pair[1] + ")"));
        chips.appendChild(span);
      });
      body.appendChild(chips);
    }
    body.appendChild(element("h3", null, "Papers (" + n.papers + ")"));
    var list = element("ul", "pk-papers");
    n.list.forEach(function (r) {
      var li = element("li");
      li.appendChild(paperTitle(r[0]));
      li.appendChild(paperMeta(r[0], r[1]));
      if (r[2] >= 0) li.appendChild(element("div", "pk-evidence", "\u201c" + data.evidence[r[2]] + "\u201d"));
      list.appendChild(li);
    });
    body.appendChild(list);
    if (n.more) body.appendChild(element("div", "pk-meta", "and " + plural(n.more, "more paper") + " not listed"));
    panel.hidden = false;
    panel.scrollTop = 0;
    view.shown = { concept: i };
  }
  var conceptsOfPaper = null;
  function showPaper(p) {
    if (conceptsOfPaper === null) {
      conceptsOfPaper = {};
      data.nodes.forEach(function (n, i) {
        n.list.forEach(function (r) {
          (conceptsOfPaper[r[0]] = conceptsOfPaper[r[0]] || []).push([i, r[1], r[2]]);
        });
      });
    }
    var paper = data.papers[p];
    body.replaceChildren();
    body.appendChild(element("h2", null, paper[0]));
    body.appendChild(paperMeta(p));
    body.appendChild(element("h3", null, "Its concepts on the map"));
    var list = element("ul");
    (conceptsOfPaper[p] || []).forEach(function (r) {
      var li = element("li");
      li.appendChild(conceptButton(r[0]));
      li.appendChild(element("span", "pk-meta", " " + data.nodes[r[0]].label + " \u00b7 " + data.edgeTypes[r[1]]));
      if (r[2] >= 0) li.appendChild(element("div", "pk-evidence", "\u201c" + data.evidence[r[2]] + "\u201d"));
      list.appendChild(li);
    });
    body.appendChild(list);
    panel.hidden = false;
    panel.scrollTop = 0;
    view.shown = { paper: p };
  }
  function focusConcept(i) {
    var node = nodes.get(i);
    if (node && node.hidden) {
      nodes.update({ id: i, hidden: false });
    }
    network.selectNodes([i]);
    network.focus(i, { scale: Math.max(network.getScale(), 0.9), animation: false });
    showConcept(i);
  }
  view.showConcept = showConcept;
  view.showPaper = showPaper;
  view.focusConcept = focusConcept;
  network.on("click", function (params) {
    if (params.nodes.length) {
      showConcept(params.nodes[0]);
    }
  });

  // --- clusters legend and year scale --------------------------------------------------
  var clusterList = document.getElementById("pk-cluster-list");
  data.clusters.forEach(function (c) {
    var li = element("li");
    var sw = element("span", "pk-swatch");
    sw.style.background = c.color;
    li.appendChild(sw);
    li.appendChild(element("span", null, c.name));
    li.appendChild(element("span", "pk-muted", "(" + c.size + ")"));
    li.title = "Show this cluster";
    li.addEventListener("click", function () {
      var ids = data.nodes.filter(function (n) { return n.cluster === c.id; }).map(function (n) { return n.id; });
      network.selectNodes(ids);
      network.fit({ nodes: ids, animation: false });
    });
    clusterList.appendChild(li);
  });
  var scale = document.getElementById("pk-year-scale");
  if (data.meanYears) {
    var gradient = element("div", "pk-gradient");
    gradient.style.background = "linear-gradient(to right," + [0, 0.25, 0.5, 0.75, 1].map(function (t) {
      return yearColor(data.meanYears[0] + t * (data.meanYears[1] - data.meanYears[0]));
    }).join(",") + ")";
    scale.appendChild(element("div", "pk-clusters-head", "Mean year of its papers"));
    scale.appendChild(gradient);
    scale.appendChild(element("div", "pk-muted", data.meanYears[0].toFixed(1) + " \u2013 " + data.meanYears[1].toFixed(1)));
  }

  // --- filters ------------------------------------------------------------------------
  var labelBox = document.getElementById("pk-labels");
  var boxes = data.labels.map(function (item) {
    var label = element("label", "pk-entry");
    var box = element("input");
    box.type = "checkbox";
    box.checked = true;
    box.setAttribute("data-label", item.label);
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + item.label + " (" + data.nodes.filter(function (n) {
      return n.label === item.label;
    }).length + ")"));
    labelBox.appendChild(label);
    box.addEventListener("change", applyFilters);
    return box;
  });
  var minInput = document.getElementById("pk-min");
  var fromInput = document.getElementById("pk-from");
  var toInput = document.getElementById("pk-to");
  if (data.years && data.years[0] !== data.years[1]) {
    document.getElementById("pk-years").hidden = false;
    fromInput.value = fromInput.min = toInput.min = data.years[0];
    toInput.value = fromInput.max = toInput.max = data.years[1];
  } else {
    document.getElementById("pk-colour").querySelector("option[value=year]").disabled = !data.meanYears;
  }
  function papersInRange(n, from, to) {
    if (!data.years || (from <= data.years[0] && to >= data.years[1])) return n.papers;
    var count = 0;
    n.years.forEach(function (yc) {
      if (yc[0] >= from && yc[0] <= to) count += yc[1];
    });
    return count;
  }
  function applyFilters() {
    var shown = {};
    boxes.forEach(function (b) { if (b.checked) shown[b.getAttribute("data-label")] = true; });
    var min = Math.max(1, parseInt(minInput.value, 10) || 1);
    var from = parseInt(fromInput.value, 10), to = parseInt(toInput.value, 10);
    if (isNaN(from)) from = -Infinity;
    if (isNaN(to)) to = Infinity;
    var updates = [];
    data.nodes.forEach(function (n) {
      var hide = !shown[n.label] || papersInRange(n, from, to) < min;
      var node = nodes.get(n.id);
      if (Boolean(node.hidden) !== hide) updates.push({ id: n.id, hidden: hide });
    });
    if (updates.length) nodes.update(updates);
  }
  [minInput, fromInput, toInput].forEach(function (input) {
    input.addEventListener("input", applyFilters);
  });
  view.setLabels = function (labels) {
    boxes.forEach(function (b) { b.checked = labels.indexOf(b.getAttribute("data-label")) >= 0; });
    applyFilters();
  };
  view.setMinPapers = function (n) { minInput.value = n; applyFilters(); };
  view.setYears = function (from, to) { fromInput.value = from; toInput.value = to; applyFilters(); };
  document.getElementById("pk-colour").addEventListener("change", function (event) {
    colourMode = event.target.value;
    scale.hidden = colourMode !== "year";
    clusterList.parentNode.hidden = colourMode === "year";
    nodes.update(data.nodes.map(function (n) { return { id: n.id, color: nodeColor(n) }; }));
  });
  view.setColour = function (mode) {
    var select = document.getElementById("pk-colour");
    select.value = mode;
    select.dispatchEvent(new Event("change"));
  };

  // --- what is on screen (for tests and the curious) -------------------------------------
  view.visibleNodeCount = function () {
    return nodes.get({ filter: function (n) { return !n.hidden; } }).length;
  };
  view.drawnLabelCount = function () {
    // labels vis-network draws at the current zoom, inside the window
    var box = container.getBoundingClientRect();
    var a = network.DOMtoCanvas({ x: 0, y: 0 });
    var b = network.DOMtoCanvas({ x: box.width, y: box.height });
    var count = 0;
    network.body.nodeIndices.forEach(function (id) {
      var node = network.body.nodes[id];
      if (node.options.hidden || !node.labelModule.visible()) return;
      if (node.x < a.x || node.x > b.x || node.y < a.y || node.y > b.y) return;
      count += 1;
    });
    return count;
  };

  // --- search by name or alias ------------------------------------------------------------
  var terms = [];
  data.nodes.forEach(function (n) {
    terms.push([n.name, n.id, 0]);
    n.aliases.forEach(function (alias) { terms.push([alias, n.id, 1]); });
  });
  var find = window.paperkgNameIndex(terms, document.getElementById("pk-names"));
  var status = document.getElementById("pk-status");
  view.search = function (query) {
    var id = find(query);
    status.className = "";
    if (id === null) {
      status.className = "pk-miss";
      status.textContent = "Nothing named \u201c" + query.trim() + "\u201d";
      return null;
    }
    var n = data.nodes[id];
    boxes.forEach(function (b) {
      if (b.getAttribute("data-label") === n.label && !b.checked) {
        b.checked = true;
        applyFilters();
      }
    });
    focusConcept(id);
    status.textContent = n.name + " (" + n.label + ")";
    return id;
  };
  document.getElementById("pk-search").addEventListener("submit", function (event) {
    event.preventDefault();
    view.search(document.getElementById("pk-query").value);
  });

  // --- take the map away ----------------------------------------------------------------
  view.pngDataUrl = function () {
    var source = container.querySelector("canvas");
    var canvas = document.createElement("canvas");
    canvas.width = source.width;
    canvas.height = source.height;
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(source, 0, 0);
    return canvas.toDataURL("image/png");
  };
  document.getElementById("pk-png").addEventListener("click", function () {
    var a = document.createElement("a");
    a.download = "paperkg-map.png";
    a.href = view.pngDataUrl();
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  timings.ready = performance.now();
})();
