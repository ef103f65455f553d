// One core per page, loaded on first use and shared by every widget.
import { loadCore, type Core } from './core';

let core: Promise<Core> | undefined;

export function getCore(): Promise<Core> {
  core ??= loadCore();
  return core;
}
