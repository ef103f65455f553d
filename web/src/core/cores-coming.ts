// The cores a page has started to fetch, shared by instance.ts (which loads them) and the
// autoloader's preloading (widgets/preload-core.ts), so that neither fetches a core twice, and a
// page whose own script loads the whole core (the lesson) fetches no attention core besides.
export const coresComing = new Set<'whole' | 'attention'>();
