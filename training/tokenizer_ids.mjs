#!/usr/bin/env node
// Encodes texts with transformers.js's AutoTokenizer from a local folder (tokenizer.json +
// tokenizer_config.json), for the test that Python's training/tokenizer.py gives the same ids.
//   echo '["text", ...]' | node training/tokenizer_ids.mjs DIR
// prints {"ids": [[...], ...], "decoded": ["...", ...]} (decoded with special tokens kept).
import path from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';

const dir = path.resolve(process.argv[2] ?? '.');
env.allowRemoteModels = false;
env.allowLocalModels = true;
env.localModelPath = path.dirname(dir) + path.sep;
const tokenizer = await AutoTokenizer.from_pretrained(path.basename(dir));
let input = '';
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
const ids = texts.map((t) => tokenizer.encode(t, { add_special_tokens: false }));
const decoded = ids.map((x) => (x.length ? tokenizer.decode(x, { skip_special_tokens: false }) : ''));
process.stdout.write(JSON.stringify({ ids, decoded }) + '\n');
