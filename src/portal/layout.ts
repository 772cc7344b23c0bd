import { assetUrl } from './assets.js';
import { html, type Html } from './html.js';
import { PAGES } from './links.js';

const NAV: { path: string; label: string }[] = [
  { path: PAGES.home, label: 'Home' },
  { path: PAGES.apiReference, label: 'API reference' },
  { path: PAGES.sandboxGuide, label: 'Sandbox guide' },
  { path: PAGES.changelog, label: 'Changelog' },
  { path: PAGES.console, label: 'Console' },
  { path: '/openapi.json', label: 'openapi.json' },
];

export interface PageOptions {
  title: string;
  /** The page's own path, marked current in the navigation. */
  path: string;
  body: Html;
  /** Scripts of ours (file names in src/portal/assets) the page runs. */
  scripts?: ('sandbox-guide.js' | 'console.js')[];
}

/** A whole portal page: our stylesheet, the navigation, the body; nothing loaded from another host. */
export function page({ title, path, body, scripts = [] }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Vetrina</title>
<link rel="stylesheet" href="${assetUrl('portal.css')}">
${scripts.map((script) => html`<script src="${assetUrl(script)}" defer></script>`)}
</head>
<body>
<header class="top">
<a class="brand" href="${PAGES.home}">Vetrina</a>
<nav>${NAV.map((item) => html`<a href="${item.path}"${item.path === path ? html` aria-current="page"` : ''}>${item.label}</a>`)}</nav>
</header>
<main>
${body}
</main>
<footer>Vetrina · product catalog API and simulated commerce sandbox</footer>
</body>
</html>
`.text;
}
