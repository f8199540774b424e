import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { translate } from './i18n/index.js';
import { NAMESPACE, type SiteRoute } from './register.js';

/**
 * The browsable API reference: Swagger UI, served from the locally installed swagger-ui-dist
 * (no CDN), reading this service's own `/doc` — at `/docs`, and at `/{lang}/docs` for the
 * language variant's document (common.md 1.5, 3.2).
 */

const require = createRequire(import.meta.url);
const ASSET_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files served from the package, with their content types. */
const ASSET_TYPES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=UTF-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=UTF-8',
  'favicon-32x32.png': 'image/png',
};

// Swagger UI reads the document URL from the page; `validatorUrl: null` keeps it from calling an external validator.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: root.getAttribute('data-spec-url'), dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
});
`;

const PAGE_TITLE = 'Calendar Server API reference';

const assetCache = new Map<string, Buffer>();

function asset(name: string): Buffer {
  let data = assetCache.get(name);
  if (!data) {
    data = name === 'init.js' ? Buffer.from(INIT_SCRIPT) : readFileSync(join(ASSET_DIR, name));
    assetCache.set(name, data);
  }
  return data;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(lang: string, specUrl: string): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang || 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(translate(PAGE_TITLE, lang))}</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-spec-url="${escapeHtml(specUrl)}"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

export function docsPageRoutes(): SiteRoute[] {
  return [
    {
      path: /^\/(?:([a-z]{2})\/)?docs\/?$/,
      handler: ({ app }, m) => {
        const lang = m[1] ?? '';
        if (lang && !app.config.languages.includes(lang)) return null;
        // Relative to the page, so the reference works whatever host name the browser used.
        const specUrl = `${lang ? `/${lang}` : ''}${app.config.restPrefix}/${NAMESPACE}/doc`;
        return {
          contentType: 'text/html; charset=UTF-8',
          body: page(lang, specUrl),
          headers: { 'X-Content-Type-Options': 'nosniff' },
        };
      },
    },
    {
      path: /^\/docs\/assets\/([\w.-]+)$/,
      handler: (_req, m) => {
        const name = m[1]!;
        const type = name === 'init.js' ? 'application/javascript; charset=UTF-8' : ASSET_TYPES[name];
        if (!type) return null;
        return {
          contentType: type,
          body: asset(name),
          headers: { 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' },
        };
      },
    },
  ];
}
