'use strict'
// Offline checks of read-topics.js (no broker here): the decimal decoding, the whole decode path on
// a record batch the Java client wrote with LZ4 (fixtures/Lz4BatchFixture.java), through the real
// registry client against a stub registry on the loopback, and the LZ4 codec on a frame of several
// blocks. ThirdPartyReaderIT runs them (`node --test`) and then the reader against a real broker.
const test = require('node:test')
const assert = require('node:assert/strict')
const http = require('node:http')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { decimalString, registryClient, pick, TopicSummary, useLz4, options } = require('../read-topics')

test('decimal bytes decode to the exact integer, two\'s complement, minimal or not', () => {
  const hex = h => Buffer.from(h, 'hex')
  assert.equal(decimalString(hex('00')), '0')
  assert.equal(decimalString(hex('00ffffffffffffffff')), '18446744073709551615') // 2^64-1 needs 9 bytes
  assert.equal(decimalString(hex('008000000000000005')), '9223372036854775813') // 2^63+5
  assert.equal(decimalString(hex('0000000000000000ff')), '255') // not minimal: same value
  assert.equal(decimalString(hex('ff')), '-1')
  assert.equal(decimalString(hex('ffffffffffffffffff')), '-1')
  assert.equal(decimalString(hex('04d2'), 2), '12.34')
  assert.equal(decimalString(hex('fb2e'), 3), '-1.234')
  assert.equal(decimalString(hex('05'), 3), '0.005')
  assert.throws(() => decimalString(Buffer.alloc(0)))
})

test('pick walks arrays and steps through wrapped unions', () => {
  const record = {
    heads: [{ created_at: '1' }, { created_at: '2' }],
    action: { 'io.jolt.stream.avro.Revoke': { cutoff: { device_sequence: '18446744073709551615' } } },
    winner: null,
  }
  assert.deepEqual(pick(record, 'heads.created_at'), ['1', '2'])
  assert.deepEqual(pick(record, 'action.cutoff.device_sequence'), ['18446744073709551615'])
  assert.deepEqual(pick(record, 'winner.device_sequence'), [])
})

test('argv: topics with counts and fields with expected values', () => {
  const o = options(['--brokers', 'a:1,b:2', '--registry', 'http://r', 'jolt.state.v2=7', 'jolt.conflicts.v2',
    '--field', 'jolt.conflicts.v2:winner_head.created_at=18446744073709551615,9223372036854775813'])
  assert.deepEqual(o.brokers, ['a:1', 'b:2'])
  assert.equal(o.timeoutMs, 60000)
  assert.deepEqual(o.topics['jolt.state.v2'], { records: 7, fields: {} })
  assert.deepEqual(o.topics['jolt.conflicts.v2'].fields, { 'winner_head.created_at': ['18446744073709551615', '9223372036854775813'] })
  assert.throws(() => options(['jolt.state.v2']), /usage/)
})

test('a Java-written LZ4 batch decodes exactly; a uint64 in a long (the .v1 layout) fails or turns negative', async t => {
  const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'lz4-batch.json'), 'utf8'))
  const server = http.createServer((req, res) => {
    // Apicurio's Confluent API sits under a path: the client must keep it.
    const m = /^\/apis\/ccompat\/v7\/schemas\/ids\/(\d+)$/.exec(req.url)
    const schema = m && fixture.schemas[m[1]]
    res.writeHead(schema ? 200 : 404, { 'Content-Type': 'application/vnd.schemaregistry.v1+json' })
    res.end(JSON.stringify(schema ? { schema } : { error_code: 40403, message: 'Schema not found' }))
  })
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  t.after(() => server.close())

  // kafkajs's own record-batch decoder, with the LZ4 codec read-topics.js registers.
  useLz4()
  const Decoder = require('kafkajs/src/protocol/decoder')
  const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder')
  const { records } = await decodeBatch(new Decoder(Buffer.from(fixture.batch, 'base64')))
  assert.equal(records.length, 5)

  const registry = registryClient(`http://127.0.0.1:${server.address().port}/apis/ccompat/v7`)
  const summary = new TopicSummary({ records: 5, fields: {
    created_at: ['18446744073709551615', '1700000000000'],
    device_sequence: ['9223372036854775813'],
    'heads.created_at': ['0', '9007199254740993'],
  } })
  for (const r of records) await summary.add(0, r, registry)
  const out = summary.toJSON(true)

  assert.equal(out.records, 5)
  assert.equal(out.tombstones, 1)
  assert.equal(out.decoded, 3)
  assert.deepEqual(out.schemaIds, { 1: 2, 2: 2 })
  // The .v1 topics' layout: 2^63+5 in a long is refused by avsc...
  assert.equal(out.failedCount, 1)
  assert.match(out.failed[0].error, /precision loss/)
  assert.equal(out.failed[0].offset, '4')
  // ...and 2^64-1 in a long decodes without an error, as -1: wrong, silently.
  assert.deepEqual(out.fields.created_at.values, ['-1', '1700000000000', '18446744073709551615'])
  assert.deepEqual(out.fields.created_at.missing, [])
  assert.deepEqual(out.fields.device_sequence.values, ['9223372036854775813'])
  assert.deepEqual(out.fields['heads.created_at'].values, ['0', '9007199254740993'])
  assert.equal(out.ok, false) // the failed .v1 value
  assert.deepEqual(out.problems, ['1 values did not decode'])
})

test('a Java-written LZ4 frame of several blocks, stored and compressed, decompresses exactly', async () => {
  const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'lz4-batch.json'), 'utf8'))
  useLz4()
  const Decoder = require('kafkajs/src/protocol/decoder')
  const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder')
  const { records } = await decodeBatch(new Decoder(Buffer.from(fixture.largeBatch, 'base64')))

  // What Lz4BatchFixture.largeBatch() wrote: 70 values of SHA-256 chains, then 130 of "jolt jolt ...".
  const incompressible = i => Buffer.concat([...Array(32).keys()].map(j => crypto.createHash('sha256').update(`lz4-${i}-${j}`).digest()))
  const compressible = Buffer.from('jolt '.repeat(205).slice(0, 1024), 'ascii')
  assert.equal(records.length, 200)
  records.forEach((r, i) => assert.ok(r.value.equals(i < 70 ? incompressible(i) : compressible), `record ${i}`))
})
