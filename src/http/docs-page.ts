import { readFileSync } from 'node:fs';
import { translate } from './i18n/index.js';
import { NAMESPACE, type SiteRoute } from './register.js';
import { bundlePath } from './api-reference-bundle.js';

/**
 * The browsable API reference: Scalar's API reference, which reads OpenAPI 3.1 and JSON Schema 2020-12 as `/doc`
 * writes them, served from this server (no CDN), reading this service's own `/doc` — at `/docs`, and at `/{lang}/docs`
 * for the language variant's document with Scalar's own texts in that language (common.md 1.5, 3.2).
 */

// Scalar's defaults would load web fonts and reach its hosted telemetry, agent and MCP services; a reference page
// served from a private network must work, and tell nobody, with no request leaving this server. Its developer
// toolbar offers to share and deploy the document through Scalar's hosted service.
const SELF_CONTAINED = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
};

const PAGE_TITLE = 'Calendar Server API reference';

let bundle: Buffer | undefined;

/** Read on the first request for it, so that the service starts whatever the state of its documentation. */
function apiReferenceBundle(): Buffer {
  bundle ??= readFileSync(bundlePath());
  return bundle;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Scalar's HTML API: the bundle mounts the reference in place of the `#api-reference` element, configured by its
 * attributes. The empty icon keeps the browser from asking for /favicon.ico, which this server does not have.
 */
function page(lang: string, specUrl: string): string {
  const configuration = { ...SELF_CONTAINED, localization: { locale: lang || 'en' } };
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang || 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(translate(PAGE_TITLE, lang))}</title>
<link rel="icon" href="data:,">
</head>
<body>
<script id="api-reference" data-url="${escapeHtml(specUrl)}" data-configuration="${escapeHtml(JSON.stringify(configuration))}"></script>
<script src="/docs/assets/api-reference.js"></script>
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
      path: /^\/docs\/assets\/api-reference\.js$/,
      handler: () => ({
        contentType: 'application/javascript; charset=UTF-8',
        body: apiReferenceBundle(),
        headers: { 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' },
      }),
    },
  ];
}
