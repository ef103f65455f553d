// The message catalogs as modules (scripts/vite-messages.ts): 'attn-messages:<namespace>'.
declare module 'attn-messages:*' {
  const catalog: import('../common/messages').Catalog;
  export default catalog;
}
