// Sorting the insights tables by a column (the page reads fully without it).
document.querySelectorAll('table.sortable').forEach((table) => {
  table.querySelectorAll('th').forEach((th, column) => {
    th.tabIndex = 0;
    const sort = () => {
      const numeric = th.dataset.type === 'number';
      const down = th.getAttribute('aria-sort') !== 'descending';
      const value = (row) => {
        const cell = row.cells[column];
        const text = cell.dataset.value ?? cell.textContent.trim();
        return numeric ? parseFloat(text) || 0 : text.toLowerCase();
      };
      const body = table.tBodies[0];
      const rows = [...body.rows].sort((a, b) => (value(a) > value(b) ? 1 : value(a) < value(b) ? -1 : 0) * (down ? -1 : 1));
      table.querySelectorAll('th').forEach((other) => other.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      rows.forEach((row) => body.appendChild(row));
    };
    th.addEventListener('click', sort);
    th.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), sort()));
  });
});
