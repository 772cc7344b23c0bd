import { createServer } from 'node:http';
import { BASELINE_PREFIX, readCapturedAnswers } from './captured-answers.js';

/**
 * The bare node:http baseline, the floor under any Node HTTP service: answers
 * `baselinePath(N)` (any method) with the bytes Vetrina answered for scenario N
 * (`BASELINE_ANSWERS`) and nothing else. A POST body is left unread: node:http discards
 * it, as it does for any handler that ignores it.
 */
const answers = await readCapturedAnswers(process.env.BASELINE_ANSWERS!);
createServer((request, response) => {
  const answer = request.url?.startsWith(BASELINE_PREFIX) ? answers[Number(request.url.slice(BASELINE_PREFIX.length))] : undefined;
  if (!answer) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': answer.contentType, 'content-length': answer.body.length }).end(answer.body);
}).listen(Number(process.env.PORT), '127.0.0.1');
