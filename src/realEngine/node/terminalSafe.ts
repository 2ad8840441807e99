// The engine process's own stdout and stderr on their way to ours: a program that reaches
// JavaScript can write there directly, past the tracer's capture.

import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { safeLines } from '../../core/terminalText';

/** A stream that passes text on with its control characters escaped (newlines and tabs kept). */
export function terminalSafe(): Transform {
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, safeLines(decoder.write(chunk)));
    },
    flush(done) {
      done(null, safeLines(decoder.end()));
    },
  });
}
