import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { MetadataStorage as TransformerMetadata } from 'class-transformer/types/MetadataStorage';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// Where class-transformer keeps what `@Type()` said; the package exports no name for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerMetadata;
};

const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

type Schema = Record<string, unknown>;

const PRIMITIVES = new Set<unknown>([undefined, String, Number, Boolean, Date]);

/** The rule a validation decorator checks: `isString`, `maxLength`, a custom validator's name... */
function ruleName(metadata: ValidationMetadata): string {
  if (metadata.name) return metadata.name;
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  return constraint?.name ?? metadata.type;
}

/** What one rule says of a value, in JSON Schema words (rules with nothing to say add nothing). */
function ruleSchema(rule: string, constraints: unknown[]): Schema | undefined {
  const [first] = constraints;
  switch (rule) {
    case 'isString':
      return { type: 'string' };
    case 'isInt':
      return { type: 'integer' };
    case 'isNumber':
      return { type: 'number' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isObject':
      return { type: 'object' };
    case 'isMongoId':
      return { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };
    case 'isEmail':
      return { type: 'string', format: 'email' };
    case 'isNotEmpty':
      return { minLength: 1 };
    case 'isIn':
      return { enum: [...(first as unknown[])] };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    case 'minLength':
      return { minLength: first };
    case 'maxLength':
      return { maxLength: first };
    case 'matches':
      return { pattern: first instanceof RegExp ? first.source : String(first) };
    default:
      return undefined;
  }
}

const ARRAY_RULES: Record<string, (constraints: unknown[]) => Schema> = {
  isArray: () => ({}),
  arrayNotEmpty: () => ({ minItems: 1 }),
  arrayMinSize: ([n]) => ({ minItems: n }),
  arrayMaxSize: ([n]) => ({ maxItems: n }),
};

const NOT_A_RULE = new Set<string>([
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.WHITELIST,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.IS_DEFINED,
]);

/** The `ApiProperty` options that say what a property's validation decorators accept. */
function propertyOptions(target: object, property: string, rules: ValidationMetadata[]): ApiPropertyOptions {
  const designType: unknown = Reflect.getMetadata('design:type', target, property);
  const optional = rules.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
  const transformed: unknown = defaultMetadataStorage
    .findTypeMetadata(target.constructor, property)
    ?.typeFunction();
  // `@Type(() => Number)` converts a query string; only a class names a nested schema.
  const nested = PRIMITIVES.has(transformed) ? undefined : transformed;
  const isArray = designType === Array || rules.some((m) => ruleName(m) === 'isArray' || m.each);
  const value: Schema = {};
  const array: Schema = {};
  const custom: string[] = [];
  for (const metadata of rules) {
    if (metadata.type !== ValidationTypes.CUSTOM_VALIDATION && NOT_A_RULE.has(metadata.type)) continue;
    const rule = ruleName(metadata);
    const constraints = (metadata.constraints ?? []) as unknown[];
    const arrayRule = ARRAY_RULES[rule];
    if (arrayRule && !metadata.each) {
      Object.assign(array, arrayRule(constraints));
      continue;
    }
    const schema = ruleSchema(rule, constraints);
    if (schema) Object.assign(value, schema);
    else custom.push(rule);
  }
  // A string that must not be empty says so once, with its own minLength if it has one.
  if (value.minLength === 1 && value.type !== 'string' && !designTypeIs(designType, String))
    delete value.minLength;
  const type = nested ?? value.type ?? primitiveOf(designType) ?? 'string';
  delete value.type;
  const options: Schema = {
    required: !optional,
    ...(isArray ? { isArray: true, ...array } : {}),
    type,
    ...value,
    ...(custom.length > 0 ? { description: `Checked by ${custom.join(', ')}` } : {}),
  };
  // Enums stand alone: @nestjs/swagger writes them inline with their values.
  if (options.enum) delete options.type;
  return options as ApiPropertyOptions;
}

function designTypeIs(designType: unknown, expected: unknown): boolean {
  return designType === expected;
}

function primitiveOf(designType: unknown): string | undefined {
  if (designType === String) return 'string';
  if (designType === Number) return 'number';
  if (designType === Boolean) return 'boolean';
  return undefined;
}

/**
 * Gives every class validated with class-validator the `@ApiProperty` metadata its decorators
 * imply, so a DTO is described by the very rules the validation pipe enforces. Options written with
 * `@ApiProperty` on a property win over the derived ones.
 */
export function describeValidatedClasses(): void {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<{ prototype: object }, ValidationMetadata[]>;
  };
  for (const [target, metadatas] of storage.validationMetadatas) {
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const metadata of metadatas) {
      byProperty.set(metadata.propertyName, [...(byProperty.get(metadata.propertyName) ?? []), metadata]);
    }
    for (const [property, rules] of byProperty) {
      const derived = propertyOptions(target.prototype, property, rules);
      const written = Reflect.getMetadata(API_MODEL_PROPERTIES, target.prototype, property) as
        ApiPropertyOptions | undefined;
      ApiProperty({ ...derived, ...written } as ApiPropertyOptions)(target.prototype, property);
    }
  }
}
