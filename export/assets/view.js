// paperkg graph view: search, label filter, neighbour highlight and tooltips on vis-network.
// Every string that comes from the input reaches the page through textContent / innerText,
// never innerHTML, so a title holding HTML markup stays text.
(function () {
  "use strict";
  var timings = { start: performance.now() };
  var data = JSON.parse(document.getElementById("pk-data").textContent);
  timings.parsed = performance.now();
  var view = (window.paperkgView = { readyAt: null, highlighted: null, timings: timings });

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function tooltip(tip) {
    var box = element("div", "pk-tip");
    box.appendChild(element("div", "pk-tip-head", tip.head));
    if (tip.sub) box.appendChild(element("div", "pk-tip-sub", tip.sub));
    tip.rows.forEach(function (row) {
      var line = element("div", "pk-tip-row");
      line.appendChild(element("span", "pk-tip-key", row[0] + ": "));
      line.appendChild(document.createTextNode(row[1]));
      box.appendChild(line);
    });
    return box;
  }

  var original = {}; // node id -> {color, label}
  data.nodes.forEach(function (n) {
    n.title = tooltip(n.kg.tip);
    original[n.id] = { color: n.color, label: n.label };
  });
  timings.tooltips = performance.now();
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var container = document.getElementById("pk-network");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, data.options);
  timings.network = performance.now();
  view.network = network;
  view.nodes = nodes;
  view.edges = edges;

  // --- ready: drawn and (with physics) stabilised -------------------------------------
  function markReady() {
    if (view.readyAt === null) {
      view.readyAt = performance.now();
      document.body.setAttribute("data-ready", "true");
    }
  }
  if (data.physics && data.nodes.length) {
    network.once("stabilizationIterationsDone", function () {
      network.once("afterDrawing", markReady);
      network.redraw();
    });
  } else {
    network.once("afterDrawing", markReady);
  }

  // --- highlight a node and its neighbours -------------------------------------------
  var edgeColors = {}; // edge id -> colour as written
  data.edges.forEach(function (e) {
    edgeColors[e.id] = e.color;
  });
  var dimmed = [];
  var dimmedEdges = [];
  function resetHighlight() {
    if (dimmed.length) {
      nodes.update(
        dimmed.map(function (id) {
          return { id: id, color: original[id].color, label: original[id].label };
        })
      );
    }
    if (dimmedEdges.length) {
      edges.update(
        dimmedEdges.map(function (id) {
          return { id: id, color: edgeColors[id] };
        })
      );
    }
    dimmed = [];
    dimmedEdges = [];
    view.highlighted = null;
  }
  function highlight(id) {
    resetHighlight();
    if (data.large) {
      // recolouring thousands of nodes and edges takes seconds: select instead
      network.setSelection(
        { nodes: [id].concat(network.getConnectedNodes(id)), edges: network.getConnectedEdges(id) },
        { highlightEdges: false }
      );
      view.highlighted = id;
      return;
    }
    var keep = {};
    keep[id] = true;
    network.getConnectedNodes(id).forEach(function (other) {
      keep[other] = true;
    });
    var updates = [];
    nodes.forEach(function (n) {
      if (!keep[n.id]) {
        dimmed.push(n.id);
        updates.push({ id: n.id, color: data.dim, label: " " });
      }
    });
    nodes.update(updates);
    var own = {};
    network.getConnectedEdges(id).forEach(function (edgeId) {
      own[edgeId] = true;
    });
    var edgeUpdates = [];
    edges.forEach(function (e) {
      if (!own[e.id]) {
        dimmedEdges.push(e.id);
        edgeUpdates.push({ id: e.id, color: data.dimEdge });
      }
    });
    edges.update(edgeUpdates);
    view.highlighted = id;
  }
  network.on("click", function (params) {
    if (params.nodes.length) {
      highlight(params.nodes[0]);
    } else if (!params.edges.length) {
      resetHighlight();
      network.unselectAll();
    }
  });

  // --- filter by label ---------------------------------------------------------------
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#pk-legend input[data-label]"));
  function shownLabels() {
    var shown = {};
    boxes.forEach(function (box) {
      if (box.checked) shown[box.getAttribute("data-label")] = true;
    });
    return shown;
  }
  function applyFilter() {
    var shown = shownLabels();
    var updates = [];
    nodes.forEach(function (n) {
      var hide = !shown[n.kg.label];
      if (Boolean(n.hidden) !== hide) updates.push({ id: n.id, hidden: hide });
    });
    if (updates.length) nodes.update(updates);
  }
  boxes.forEach(function (box) {
    box.addEventListener("change", applyFilter);
  });
  view.setLabels = function (labels) {
    boxes.forEach(function (box) {
      box.checked = labels.indexOf(box.getAttribute("data-label")) >= 0;
    });
    applyFilter();
  };
  view.drawnNodeCount = function () {
    return network.body.nodeIndices.length;
  };
  view.drawnEdgeCount = function () {
    return network.body.edgeIndices.length;
  };

  // --- search by name or alias -------------------------------------------------------
  // exact matches prefer a concept's name, then its aliases, then a paper's name or title
  var terms = [];
  data.nodes.forEach(function (n) {
    var paper = n.kg.label === "Paper";
    terms.push([n.kg.name, n.id, paper ? 2 : 0]);
    n.kg.aliases.forEach(function (alias) {
      terms.push([alias, n.id, paper ? 2 : 1]);
    });
    if (paper && n.kg.tip.head !== n.kg.name) terms.push([n.kg.tip.head, n.id, 2]);
  });
  var find = window.paperkgNameIndex(terms, document.getElementById("pk-names"));
  timings.search = performance.now();

  var status = document.getElementById("pk-status");
  view.search = function (query) {
    var id = find(query);
    status.className = "";
    if (id === null) {
      status.className = "pk-miss";
      status.textContent = "Nothing named \u201c" + query.trim() + "\u201d";
      return null;
    }
    var node = nodes.get(id);
    var box = boxes.filter(function (b) {
      return b.getAttribute("data-label") === node.kg.label;
    })[0];
    if (box && !box.checked) {
      box.checked = true;
      applyFilter();
    }
    highlight(id);
    if (!data.large) network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.2), animation: false });
    status.textContent = node.kg.name + " (" + node.kg.label + ")";
    return id;
  };
  document.getElementById("pk-search").addEventListener("submit", function (event) {
    event.preventDefault();
    view.search(document.getElementById("pk-query").value);
  });
})();
