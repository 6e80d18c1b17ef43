// The report's charts and table, drawn from the data the page embeds (#report-data) with the inlined ECharts.
// It records every script error and console error in #script-errors, and the number of charts it drew in
// <body data-charts-drawn>, so that a headless browser's DOM says whether the page worked.
(function () {
  'use strict';
  const errors = [];
  const record = message => errors.push(String(message));
  window.addEventListener('error', event => record(event.message));
  const consoleError = console.error;
  console.error = function (...args) {
    record(args.join(' '));
    consoleError.apply(console, args);
  };

  // A number with an SI prefix and three significant digits at most: 1.5 G, 250 M, 4.1 k, 12, 0.5.
  function readable(value) {
    const prefixes = ['', ' k', ' M', ' G', ' T', ' P'];
    let step = 0;
    while (Math.abs(value) >= 1000 && step < prefixes.length - 1) {
      value /= 1000;
      step++;
    }
    const magnitude = Math.abs(value);
    const digits = magnitude >= 100 || magnitude === Math.round(magnitude) ? value.toFixed(0)
      : magnitude >= 10 ? value.toFixed(1) : magnitude >= 0.01 ? value.toFixed(2) : value.toPrecision(2);
    return (digits.includes('.') && !digits.includes('e') ? digits.replace(/0+$/, '').replace(/\.$/, '') : digits) + prefixes[step];
  }

  const legend = {type: 'scroll', orient: 'vertical', right: 0, top: 40, bottom: 10, textStyle: {fontSize: 11}};
  // Each series its own marker and dash, and earlier ones wider: a series drawn over another (two schedules with the
  // same critical path) leaves it visible.
  const symbols = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow'];
  const dashes = ['solid', 'dashed', 'dotted'];

  function lines(chart) {
    const category = !chart.logX;
    return {
      animation: false,
      title: {text: chart.title, left: 0, textStyle: {fontSize: 14}},
      tooltip: {
        trigger: 'item',
        formatter: item => {
          const point = item.data.point;
          const spread = point.lo === null ? '' : point.lo === point.y ? ' (exact)'
            : `<br>runs: ${readable(point.lo)} to ${readable(point.hi)}`;
          return `${item.seriesName}<br>${chart.xTitle} ${point.x}: <b>${readable(point.y)}</b> ${chart.unit}${spread}`;
        }
      },
      legend: legend,
      grid: {left: 70, right: 300, top: 50, bottom: 50},
      xAxis: category
        ? {type: 'category', name: chart.xTitle, nameLocation: 'middle', nameGap: 30, data: chart.xs}
        : {type: 'log', name: chart.xTitle + (chart.xTitle === 'size' ? ' (points, log scale)' : ' (log scale)'),
           nameLocation: 'middle', nameGap: 30, axisLabel: {formatter: readable}},
      yAxis: {type: chart.logY ? 'log' : 'value', name: chart.yTitle, nameLocation: 'middle', nameGap: 55,
              axisLabel: {formatter: readable}},
      series: chart.series.map((series, index) => ({
        name: series.name, type: 'line', emphasis: {focus: 'series'},
        symbol: symbols[index % symbols.length], symbolSize: Math.max(6, 12 - index),
        lineStyle: {width: Math.max(1.5, 6 - 0.8 * index), type: dashes[Math.floor(index / symbols.length + index) % dashes.length],
                    opacity: 0.85},
        data: series.points.map(point => ({value: [category ? point.x : point.o, point.y], point: point}))
      }))
    };
  }

  // Speed-ups coloured on a log scale centred on 1: slower than the baseline red, faster green.
  function heatmap(chart) {
    const cells = [];
    chart.series.forEach((series, row) => series.points.forEach(point =>
      cells.push({value: [chart.xs.indexOf(point.x), row, Math.log2(point.y)], point: point, series: series.name})));
    const reach = Math.max(0.1, ...cells.map(cell => Math.abs(cell.value[2])));
    return {
      animation: false,
      title: {text: chart.title, left: 0, textStyle: {fontSize: 14}},
      tooltip: {formatter: item => `${item.data.series}<br>${chart.xTitle} ${item.data.point.x}: <b>${item.data.point.y.toFixed(2)}×</b>`},
      grid: {left: 300, right: 20, top: 50, bottom: 80},
      xAxis: {type: 'category', data: chart.xs, name: chart.xTitle, nameLocation: 'middle', nameGap: 30, splitArea: {show: true}},
      yAxis: {type: 'category', data: chart.series.map(series => series.name), inverse: true, axisLabel: {fontSize: 11}},
      visualMap: {min: -reach, max: reach, calculable: false, orient: 'horizontal', left: 'center', bottom: 5,
                  text: ['faster', 'slower'], inRange: {color: ['#d73027', '#f7f7f7', '#1a9850']},
                  formatter: value => Math.pow(2, value).toFixed(2) + '×'},
      series: [{type: 'heatmap', data: cells, label: {show: true, fontSize: 11,
        formatter: item => item.data.point.y.toFixed(2) + '×'}}]
    };
  }

  function drawCharts() {
    const data = JSON.parse(document.getElementById('report-data').textContent);
    let drawn = 0;
    data.charts.forEach((chart, index) => {
      const element = document.getElementById('chart-' + index);
      const drawing = echarts.init(element, null, {renderer: 'svg'});
      drawing.setOption(chart.kind === 'HEATMAP' ? heatmap(chart) : lines(chart));
      window.addEventListener('resize', () => drawing.resize());
      drawn++;
    });
    return drawn;
  }

  // Click a column's head to sort by it (again to reverse); type in the filter to keep the rows holding every word.
  function tableControls() {
    const table = document.querySelector('table.results');
    if (!table) {
      return;
    }
    const body = table.tBodies[0];
    table.querySelectorAll('thead th').forEach((head, column) => {
      head.classList.add('sortable');
      head.addEventListener('click', () => {
        const descending = head.dataset.sorted === 'ascending';
        table.querySelectorAll('thead th').forEach(other => delete other.dataset.sorted);
        head.dataset.sorted = descending ? 'descending' : 'ascending';
        const key = row => {
          const cell = row.cells[column];
          const number = parseFloat(cell ? cell.textContent : '');
          return cell && cell.classList.contains('number') && !isNaN(number) ? number : (cell ? cell.textContent : '');
        };
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          const order = typeof x === 'number' && typeof y === 'number' ? x - y
            : typeof x === 'number' ? -1 : typeof y === 'number' ? 1 : String(x).localeCompare(String(y));
          return descending ? -order : order;
        });
        rows.forEach(row => body.appendChild(row));
      });
    });
    const filter = document.getElementById('filter');
    filter.hidden = false;
    filter.addEventListener('input', () => {
      const words = filter.value.toLowerCase().split(/\s+/).filter(word => word.length > 0);
      Array.from(body.rows).forEach(row => {
        const text = row.textContent.toLowerCase();
        row.hidden = !words.every(word => text.includes(word));
      });
    });
  }

  let drawn = 0;
  try {
    drawn = drawCharts();
  } catch (failure) {
    record(failure && failure.stack ? failure.stack : failure);
  }
  try {
    tableControls();
  } catch (failure) {
    record(failure && failure.stack ? failure.stack : failure);
  }
  document.body.dataset.chartsDrawn = String(drawn);
  const shown = document.getElementById('script-errors');
  shown.textContent = errors.join('\n');
  shown.hidden = errors.length === 0;
  // later errors (a tooltip, a resize) are shown too
  window.addEventListener('error', () => {
    shown.textContent = errors.join('\n');
    shown.hidden = false;
  });
})();
