/** A statement pg prepares on a connection the first time it runs there, and afterwards runs by its name. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

const declared = new Map<string, NamedStatement>();

/**
 * Declares a named statement, once, at module level: run as `pool.query({ ...statement,
 * values })`. Under a name the text must never change (pg fails a statement whose name a
 * connection prepared with another text), so two texts under one name are refused here, at
 * load. Every statement declared is one list, which tools/named-statements.test.ts prepares
 * against the migrated schema: SQL that a migration left behind fails there, not in use.
 */
export function namedStatement(name: string, text: string): NamedStatement {
  const known = declared.get(name);
  if (known && known.text !== text) throw new Error(`two statements are named ${name}`);
  const statement = known ?? Object.freeze({ name, text });
  declared.set(name, statement);
  return statement;
}

/** The statements the modules loaded so far have declared. */
export function declaredStatements(): NamedStatement[] {
  return [...declared.values()];
}
