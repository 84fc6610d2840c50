/**
 * Every refusal of an Arquiteto declaration is a list of problems, each addressed to the field it concerns,
 * so the model can fix them all in one turn (record ADR 0200: "отказывает с полной причиной, которая
 * возвращается модели").
 */
export type DeclarationProblemCode =
  | 'malformed_arguments'
  | 'missing_field'
  | 'wrong_type'
  | 'unknown_field'
  | 'invalid_value'
  | 'invalid_module_name'
  | 'repeated_module'
  | 'repeated_dependency'
  | 'self_dependency'
  | 'unknown_dependency'
  | 'dependency_cycle'
  | 'no_module_map'
  | 'module_not_in_map'
  | 'empty_contratos'
  | 'empty_expoe'
  | 'too_many_items'
  | 'unknown_tipo'
  | 'empty_assinatura'
  | 'assinatura_too_long'
  | 'descricao_too_long'
  | 'empty_text'
  | 'text_too_long'
  | 'too_many_entries'
  | 'repeated_id'
  | 'unknown_endpoint'
  | 'module_to_module_relation';

/** Path segments as zod reports them: object keys and array indexes. */
export type ProblemPath = readonly PropertyKey[];

/** A problem before it is formatted; the path stays structured so problems can be ordered. */
export type ProblemAtPath = {
  readonly code: DeclarationProblemCode;
  readonly path: ProblemPath;
  readonly message: string;
};

/** One reason a declaration was refused. */
export type DeclarationProblem = {
  readonly code: DeclarationProblemCode;
  /** Field path as the model wrote it, e.g. `contratos[1].expoe[0].tipo`; `(arguments)` for the whole. */
  readonly path: string;
  readonly message: string;
};

/** A refused declaration: `reason` is the full text returned to the model; nothing was recorded. */
export type DeclarationRefusal = {
  readonly ok: false;
  readonly reason: string;
  readonly problems: readonly DeclarationProblem[];
};

/** Formats a path the way the model wrote the arguments: `contratos[1].expoe[0].tipo`. */
export function formatProblemPath(path: ProblemPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(arguments)' : text;
}
