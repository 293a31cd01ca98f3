/**
 * The providers registered with each database (rerankers.ts, embedders.ts): a map of name to provider per
 * owner, held weakly so that a closed database's providers go with it.
 */
export class ProviderRegistry<P> {
  readonly #byOwner = new WeakMap<object, Map<string, P>>();

  /** Adds the providers `make` builds from `specs` to the owner's; a name registered again is replaced. */
  register<S>(owner: object, specs: Readonly<Record<string, S>> | undefined, make: (name: string, spec: S) => P): void {
    if (specs === undefined) return;
    let registry = this.#byOwner.get(owner);
    if (!registry) this.#byOwner.set(owner, (registry = new Map()));
    for (const [name, spec] of Object.entries(specs)) registry.set(name, make(name, spec));
  }

  get(owner: object, name: string): P | undefined {
    return this.#byOwner.get(owner)?.get(name);
  }

  /** The owner's providers in registration order. */
  all(owner: object): P[] {
    return [...(this.#byOwner.get(owner)?.values() ?? [])];
  }
}
