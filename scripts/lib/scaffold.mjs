/**
 * Names a scaffolded plugin derives from its id. Ids are the manifest's (2-40 lower-case letters,
 * digits, dashes, starting with a letter); we also refuse leading, trailing or doubled dashes so
 * every derived name is clean.
 */
export function validatePluginId(id) {
  if (!/^[a-z][a-z0-9-]{1,39}$/.test(id)) return `invalid plugin id "${id}": use 2-40 lower-case letters, digits and dashes, starting with a letter`;
  if (/--|-$/.test(id)) return `invalid plugin id "${id}": no doubled or trailing dashes`;
  return null;
}

export function pluginNames(id) {
  const camel = id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
  return {
    __ID__: id,
    __CAMEL__: camel,
    __PASCAL__: camel[0].toUpperCase() + camel.slice(1),
    // SQL identifiers unquoted: dashes become underscores.
    __TABLE__: `${id.replace(/-/g, '_')}_items`,
  };
}
