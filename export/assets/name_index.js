// paperkg views: find a node by its name or an alias, shared by the papers view and the map.
// nameIndex(terms, datalist): terms are [text, node id, rank]; an exact match (case
// folded) prefers the lowest rank, else the first term containing the query wins. The
// terms also fill the search box's suggestions (as option values: text, never HTML).
window.paperkgNameIndex = function (terms, datalist) {
  "use strict";
  var exact = new Map();
  var entries = [];
  var options = document.createDocumentFragment();
  terms.forEach(function (term) {
    var key = term[0].toLowerCase();
    var known = exact.get(key);
    if (!known || known.rank > term[2]) exact.set(key, { id: term[1], rank: term[2] });
    entries.push([key, term[1]]);
    var option = document.createElement("option");
    option.value = term[0];
    options.appendChild(option);
  });
  datalist.appendChild(options);
  return function find(query) {
    var key = query.trim().toLowerCase();
    if (!key) return null;
    if (exact.has(key)) return exact.get(key).id;
    for (var i = 0; i < entries.length; i++) {
      if (entries[i][0].indexOf(key) >= 0) return entries[i][1];
    }
    return null;
  };
};
