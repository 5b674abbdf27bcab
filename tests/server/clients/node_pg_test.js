// node-postgres against attud: simple and extended (parameterized)
// queries, prepared statements by name, errors with SQLSTATE.
const { Client } = require('pg');

(async () => {
  const c = new Client({ host: '127.0.0.1', port: +process.env.ATTU_PORT,
                         user: 'attu', database: 'attu' });
  await c.connect();
  let r = await c.query('SELECT 1 AS one');
  if (r.rows[0].one !== 1) throw new Error('simple: ' + JSON.stringify(r.rows));
  r = await c.query({ text: 'SELECT $1, $2', values: ['abc', null], rowMode: 'array' });
  const v = r.rows[0];
  if (v[0] !== 'abc' || v[1] !== null) throw new Error('params: ' + JSON.stringify(r.rows));
  for (let i = 0; i < 3; i++) {
    r = await c.query({ name: 'p1', text: 'SELECT $1', values: ['x' + i] });
    if (Object.values(r.rows[0])[0] !== 'x' + i) throw new Error('prepared');
  }
  r = await c.query({ text: 'SELECT 5', rowMode: 'array' });
  if (r.rows[0][0] !== 5) throw new Error('rowMode');
  try {
    await c.query('SELEC 1');
    throw new Error('no error');
  } catch (e) {
    if (e.code !== '42601') throw e;
  }
  r = await c.query('SELECT 2');   // still usable after the error
  await c.end();
  console.log('node-postgres: ok');
})().catch((e) => { console.error('FAIL:', e); process.exit(1); });
