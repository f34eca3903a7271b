// Sort and filter the reproduction tables of the book. No library: the book is read offline.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.reproduction").forEach(makeInteractive);
});

// A text filter, a status filter and a row count above the table; sortable headers.
function makeInteractive(table) {
  const rows = Array.from(table.tBodies[0].rows);
  const search = document.createElement("input");
  search.type = "search";
  search.placeholder = "Filter the rows";
  search.setAttribute("aria-label", "Filter the rows of the table");
  const status = document.createElement("select");
  status.setAttribute("aria-label", "Show the rows of one status");
  const statuses = [...new Set(rows.map((row) => row.dataset.status))];
  status.append(new Option("every status", ""), ...statuses.map((s) => new Option(s, s)));
  const count = document.createElement("span");
  count.className = "reproduction-count";
  const controls = document.createElement("div");
  controls.className = "reproduction-controls";
  controls.append(search, status, count);
  table.parentElement.before(controls);

  const update = () => {
    const text = search.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      const visible =
        (!status.value || row.dataset.status === status.value) &&
        (!text || row.textContent.toLowerCase().includes(text));
      row.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    count.textContent = `${shown} of ${rows.length} rows`;
  };
  search.addEventListener("input", update);
  status.addEventListener("change", update);
  Array.from(table.tHead.rows[0].cells).forEach((header, index) => {
    header.classList.add("sortable");
    header.tabIndex = 0;
    header.title = "Sort by this column";
    const sort = () => sortBy(table, header, index);
    header.addEventListener("click", sort);
    header.addEventListener("keydown", (event) => event.key === "Enter" && sort());
  });
  update();
}

// Sort the rows by one column: numbers as numbers, before text; again to reverse. Blank
// cells come last in either direction (a row without a deviation is not the smallest).
function sortBy(table, header, index) {
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  for (const cell of header.parentElement.cells) cell.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const key = (row) => {
    const text = row.cells[index].textContent.trim();
    const number = Number(text);
    if (text === "") return null;
    return !Number.isNaN(number) ? number : text.toLowerCase();
  };
  const order = (a, b) =>
    typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === "number" ? -1 : 1;
  const direction = ascending ? 1 : -1;
  const compare = (a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x === null || y === null) return (x === null) - (y === null);
    return order(x, y) * direction;
  };
  const body = table.tBodies[0];
  body.append(...Array.from(body.rows).sort(compare));
}
