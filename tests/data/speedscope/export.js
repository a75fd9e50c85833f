// node export.js SPEEDSCOPE_DIR IN OUT.speedscope.json
// Imports IN (any format speedscope reads) with speedscope's own importer and writes what its
// "Export" button writes (exportProfileGroup), both run in node by load-speedscope.js.
const fs = require('fs');
const path = require('path');
const [dir, input, output] = process.argv.slice(2);
require('./load-speedscope.js')(dir).then(async ss => {
  const group = await ss.importProfileGroupFromText(path.basename(input), fs.readFileSync(input, 'utf8'));
  fs.writeFileSync(output, JSON.stringify(ss.exportProfileGroup(group)) + '\n');
});
