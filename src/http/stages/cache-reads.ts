import { RestError } from '../errors.js';
import { answerBytes, type Stage } from '../exchange.js';
import { jsonBytes } from '../json-bytes.js';
import { joinLinks } from '../send.js';

/**
 * Repeated reads of a cacheable endpoint are answered from the response cache (http/cache.ts);
 * a miss is built by the later stages and kept: a 200, or a client error (a page past the end,
 * an unknown ID) without an ETag, depending on all data: what a handler names it was built from
 * (`ctx.readFrom`) holds for its answers only. A handler may build it from a part an earlier answer
 * kept (`ctx.answerPart`): the verdict is then `part`; an answer stale by term counts alone is
 * served with them rewritten: `recounted`. After authentication: a bad credential is refused even
 * when the answer is cached.
 */
export const cacheReads: Stage = async (x, next) => {
  const { endpoint, ctx } = x;
  if (!endpoint.cache || ctx.method !== 'GET' || x.body != null) return next();
  const slot = await x.dispatcher.cache.open({
    method: ctx.method,
    lang: ctx.lang,
    url: x.url,
    user: ctx.user,
    settings: ctx.settings,
    lifetime: endpoint.cache,
  });
  x.cache = slot.hit ? (slot.recounted ? 'recounted' : 'hit') : 'miss';
  if (slot.hit) return { kind: 'stored', entry: slot.hit };
  ctx.dataVersion = slot.version;
  ctx.answerPart = slot.part ?? undefined;
  try {
    const answer = await next();
    if (slot.part?.taken) x.cache = 'part';
    if (answer.kind !== 'json' || !answer.storable) return answer;
    return {
      kind: 'stored',
      // The key holds the language, and with it the common `Link`: joined once, not at every hit.
      entry: slot.fill(answer.status, joinLinks(x.common, answer.headers), answerBytes(answer), {
        freshUntil: ctx.freshUntil,
        reads: ctx.readFrom,
        contentType: answer.contentType,
      }),
    };
  } catch (err) {
    if (!isClientError(err)) throw err;
    const headers = { ...x.endpointHeaders(), ...err.headers };
    return {
      kind: 'stored',
      entry: slot.fill(err.status, headers, jsonBytes(err.body), { freshUntil: ctx.freshUntil }),
    };
  } finally {
    slot.release();
  }
};

function isClientError(err: unknown): err is RestError {
  return err instanceof RestError && err.status >= 400 && err.status < 500;
}
