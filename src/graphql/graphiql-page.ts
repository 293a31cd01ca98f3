/**
 * The offline GraphiQL page of the database's endpoints and of the gateway: yoga's bundled GraphiQL (no CDN),
 * opened on its Explorer, where root fields (the collections) are checkboxes that build the query.
 */
import type { GraphiQLOptions } from 'graphql-yoga';

/** Clicks the Explorer's sidebar button once GraphiQL has rendered (GraphiQL has no option to open it). */
const OPEN_EXPLORER = `<script>
addEventListener('load', () => {
  const started = Date.now();
  const timer = setInterval(() => {
    const button = document.querySelector('[aria-label="Show GraphiQL Explorer"]');
    if (button || Date.now() - started > 10000) clearInterval(timer);
    if (button) button.click();
  }, 50);
});
</script>`;

export async function renderExplorerPage(options: GraphiQLOptions | undefined): Promise<string> {
  // The bundle is about 9 MB of inlined script: read only when a browser asks for the page.
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL(options);
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + OPEN_EXPLORER : html.slice(0, end) + OPEN_EXPLORER + html.slice(end);
}
