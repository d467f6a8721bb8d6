#!/usr/bin/env node
'use strict'
// A third-party reader of jolt-stream's topics (issue #28): what an analyst's Node.js tool does,
// with stock clients only: kafkajs, @kafkajs/confluent-schema-registry (avsc inside) and an LZ4
// codec. It reads each topic from the beginning, decodes every value through the registry and
// prints one JSON summary on stdout, so that a Java integration test can run it as a subprocess
// and assert on the result. Logs go to stderr; stdout carries the summary only.
//
//   node read-topics.js --brokers HOST:PORT[,...] --registry URL [--timeout-ms N] [--spec FILE]
//                       [TOPIC[=RECORDS] ...] [--field TOPIC:PATH[=VALUE,VALUE...] ...]
//
// RECORDS is the expected record count (tombstones included). A --field names a value to report,
// by a dotted PATH into the decoded record (arrays are walked, wrapped unions are stepped
// through), with the exact values that must occur in it. --spec FILE holds the same as JSON:
//   {"brokers": ["localhost:9092"], "registry": "http://localhost:8080/apis/ccompat/v7",
//    "timeoutMs": 60000, "topics": {"jolt.conflicts.v2": {"records": 12,
//    "fields": {"winner_head.created_at": ["18446744073709551615"]}}}}
// The summary gives, per topic, the records read (tombstones among them), the values decoded and
// those that failed (with why), the schema ids met and each field's distinct values; and lz4Frames,
// how many LZ4 frames were decompressed.
// Exit code: 0 when every topic was read to its end, every value decoded and every expectation
// holds; 1 when one does not (the summary says which); 2 when the reader could not run.

const { parseArgs } = require('node:util')
const fs = require('node:fs')
const avro = require('avsc')
const lz4js = require('lz4js')
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry')

// --- Decoding -----------------------------------------------------------------------------------

// An Avro decimal is the big-endian two's-complement unscaled integer. BigInt holds it exactly,
// where a JS number would round anything above 2^53. Returned as a decimal string: exact, and
// JSON can carry it (JSON.stringify refuses BigInt).
function decimalString(bytes, scale = 0) {
  if (bytes.length === 0) throw new Error('an Avro decimal needs at least one byte')
  const unscaled = BigInt.asIntN(bytes.length * 8, BigInt('0x' + Buffer.from(bytes).toString('hex')))
  const negative = unscaled < 0n
  let digits = (negative ? -unscaled : unscaled).toString()
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0')
    digits = digits.slice(0, -scale) + '.' + digits.slice(-scale)
  }
  return (negative ? '-' : '') + digits
}

// avsc has no decimal of its own: without this it hands back the raw Buffer (exact, but every
// reader would need decimalString). Registered for the registry's schemas, a decimal(20,0) uint64
// arrives as "18446744073709551615". Read-only: this tool never writes.
class DecimalType extends avro.types.LogicalType {
  constructor(schema, opts) {
    super(schema, opts)
    this._scale = schema.scale || 0
  }

  _fromValue(bytes) {
    return decimalString(bytes, this._scale)
  }

  _toValue() {
    throw new Error('read-topics.js only reads')
  }
}

function registryClient(url) {
  // avsc's default long stays: it refuses a long beyond 2^53 ("potential precision loss"), as any
  // generic JS reader does. That refusal is what this reader exists to catch.
  return new SchemaRegistry({ host: url }, { [SchemaType.AVRO]: { logicalTypes: { decimal: DecimalType } } })
}

// --- Picking and summarising --------------------------------------------------------------------

// Every value at PATH in a decoded record: arrays are walked; a union avsc wraps (two records in
// one union, e.g. {"io.jolt.stream.avro.Revoke": {...}}) is stepped through, so "action.cutoff"
// reaches a Revoke's cutoff.
function pick(value, path) {
  let current = [value]
  for (const step of path.split('.')) {
    const next = []
    for (let v of current.flat(Infinity)) {
      if (v === null || v === undefined || typeof v !== 'object' || Buffer.isBuffer(v)) continue
      if (!(step in v)) {
        const keys = Object.keys(v)
        if (keys.length === 1 && keys[0].includes('.')) v = v[keys[0]]
      }
      if (v !== null && typeof v === 'object' && step in v) next.push(v[step])
    }
    current = next
  }
  return current.flat(Infinity).filter(v => v !== null && v !== undefined).map(show)
}

function show(v) {
  if (Buffer.isBuffer(v)) return v.toString('hex')
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

const INTEGER = /^-?[0-9]+$/
function compare(a, b) {
  if (INTEGER.test(a) && INTEGER.test(b)) return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0
  return a < b ? -1 : a > b ? 1 : 0
}

const MAX_LISTED = 100 // failures and distinct values listed per topic/field; the counts are always whole

class TopicSummary {
  constructor(expected = {}) {
    this.expected = expected
    this.records = 0
    this.tombstones = 0
    this.decoded = 0
    this.failedCount = 0
    this.failed = []
    this.schemaIds = {}
    this.fieldValues = Object.fromEntries(Object.keys(expected.fields || {}).map(p => [p, new Set()]))
  }

  // One record as the consumer gives it: {offset, value: Buffer | null}.
  async add(partition, message, registry) {
    this.records++
    if (message.value === null) { // a tombstone (compacted topics): no value to decode
      this.tombstones++
      return
    }
    try {
      if (message.value.length >= 5 && message.value[0] === 0) {
        const id = message.value.readInt32BE(1)
        this.schemaIds[id] = (this.schemaIds[id] || 0) + 1
      }
      const value = await registry.decode(message.value)
      this.decoded++
      for (const [path, seen] of Object.entries(this.fieldValues)) pick(value, path).forEach(v => seen.add(v))
    } catch (e) {
      this.failedCount++
      if (this.failed.length < MAX_LISTED) this.failed.push({ partition, offset: message.offset, error: String(e.message || e) })
    }
  }

  toJSON(complete) {
    const problems = []
    if (!complete) problems.push('not read to its end before the timeout')
    if (this.failedCount > 0) problems.push(`${this.failedCount} values did not decode`)
    if (this.expected.records !== undefined && this.expected.records !== this.records) {
      problems.push(`expected ${this.expected.records} records, read ${this.records}`)
    }
    const fields = {}
    for (const [path, seen] of Object.entries(this.fieldValues)) {
      const sorted = [...seen].sort(compare)
      const missing = this.expected.fields[path].filter(v => !seen.has(String(v)))
      if (missing.length > 0) problems.push(`${path}: ${missing.join(', ')} not seen`)
      fields[path] = {
        distinct: sorted.length, min: sorted[0] ?? null, max: sorted[sorted.length - 1] ?? null, missing,
        ...(sorted.length <= MAX_LISTED ? { values: sorted } : {}),
      }
    }
    return {
      ok: problems.length === 0, problems, complete, records: this.records, tombstones: this.tombstones,
      decoded: this.decoded, failedCount: this.failedCount, failed: this.failed, schemaIds: this.schemaIds, fields,
    }
  }
}

// --- Reading from Kafka -------------------------------------------------------------------------

// kafkajs has no LZ4 of its own, and the HTTP ingest and the bolt write LZ4 batches: without a codec
// it reads nothing of them. lz4js is plain JavaScript (no native build at install) and reads the
// LZ4 frame format Kafka's batches use. Decompression only: this tool never writes, and lz4js's
// compressor has an open bug (Benzinga/lz4js#8) that its decompressor does not share.
let lz4Frames = 0 // frames read: a run that reports none has read no LZ4 batch, and so has not tested the codec
const lz4Codec = () => ({
  async decompress(buffer) {
    lz4Frames++
    const out = lz4js.decompress(buffer)
    return Buffer.from(out.buffer, out.byteOffset, out.length)
  },
})

function useLz4() {
  const { CompressionTypes, CompressionCodecs } = require('kafkajs')
  CompressionCodecs[CompressionTypes.LZ4] = lz4Codec
}

async function readTopics({ brokers, registry: registryUrl, timeoutMs, topics }) {
  const { Kafka, logLevel } = require('kafkajs')
  useLz4()

  const kafka = new Kafka({
    clientId: 'jolt-js-reader', brokers, logLevel: logLevel.WARN,
    logCreator: () => ({ label, log }) => process.stderr.write(`${label} ${log.message}\n`), // keep stdout for the summary
  })
  const registry = registryClient(registryUrl)
  const names = Object.keys(topics)
  const summaries = Object.fromEntries(names.map(t => [t, new TopicSummary(topics[t])]))

  // Where each partition ends now: the topic is read when every partition's position reaches it.
  // Offsets, not counts, because transaction markers (the service runs exactly-once) and
  // compaction take offsets that carry no record.
  const admin = kafka.admin()
  await admin.connect()
  const position = {}
  const end = {}
  for (const t of names) {
    position[t] = {}
    end[t] = {}
    for (const p of await admin.fetchTopicOffsets(t)) {
      position[t][p.partition] = BigInt(p.low)
      end[t][p.partition] = BigInt(p.high)
    }
  }
  await admin.disconnect()
  const isRead = t => Object.keys(end[t]).every(p => position[t][p] >= end[t][p])

  // A group of its own, so that every run starts from the beginning and commits nothing shared.
  const consumer = kafka.consumer({ groupId: `jolt-js-reader-${process.pid}-${Date.now()}` })
  // Fired for every fetched batch, also one holding only transaction markers (which eachMessage
  // never sees): its lastOffset is how far the partition has been read.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    const next = BigInt(payload.lastOffset) + 1n
    if (next > position[payload.topic][payload.partition]) position[payload.topic][payload.partition] = next
  })
  await consumer.connect()
  await consumer.subscribe({ topics: names, fromBeginning: true })
  await consumer.run({
    eachMessage: ({ topic, partition, message }) => summaries[topic].add(partition, message, registry),
  })

  const deadline = Date.now() + timeoutMs
  while (!names.every(isRead) && Date.now() < deadline) await new Promise(r => setTimeout(r, 200))
  await consumer.disconnect()

  const out = Object.fromEntries(names.map(t => [t, summaries[t].toJSON(isRead(t))]))
  return { ok: names.every(t => out[t].ok), lz4Frames, topics: out }
}

// --- Command line -------------------------------------------------------------------------------

function options(argv) {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true,
    options: {
      brokers: { type: 'string' }, registry: { type: 'string' }, 'timeout-ms': { type: 'string' },
      spec: { type: 'string' }, field: { type: 'string', multiple: true },
    },
  })
  const spec = values.spec ? JSON.parse(fs.readFileSync(values.spec, 'utf8')) : {}
  const topics = spec.topics || {}
  for (const arg of positionals) {
    const [name, count] = arg.split('=')
    topics[name] = { ...topics[name], ...(count !== undefined ? { records: Number(count) } : {}) }
  }
  for (const arg of values.field || []) {
    const m = /^([^:]+):([^=]+)(?:=(.*))?$/.exec(arg)
    if (!m) throw new Error(`--field ${arg}: expected TOPIC:PATH[=VALUE,...]`)
    const topic = (topics[m[1]] = topics[m[1]] || {})
    topic.fields = { ...topic.fields, [m[2]]: m[3] ? m[3].split(',') : [] }
  }
  for (const t of Object.values(topics)) t.fields = t.fields || {}
  const brokers = values.brokers ? values.brokers.split(',') : spec.brokers
  const registry = values.registry || spec.registry
  if (!brokers || !registry || Object.keys(topics).length === 0) {
    throw new Error('usage: read-topics.js --brokers HOST:PORT --registry URL [--timeout-ms N] [--spec FILE] TOPIC[=RECORDS]... [--field TOPIC:PATH[=V,...]]')
  }
  return { brokers, registry, timeoutMs: Number(values['timeout-ms'] || spec.timeoutMs || 60000), topics }
}

if (require.main === module) {
  Promise.resolve()
    .then(() => readTopics(options(process.argv.slice(2))))
    .then(summary => {
      process.stdout.write(JSON.stringify(summary, null, 2) + '\n')
      process.exitCode = summary.ok ? 0 : 1
    })
    .catch(e => {
      process.stdout.write(JSON.stringify({ ok: false, error: String(e.message || e) }) + '\n')
      process.exitCode = 2
    })
}

module.exports = { decimalString, DecimalType, registryClient, pick, TopicSummary, useLz4, options }
