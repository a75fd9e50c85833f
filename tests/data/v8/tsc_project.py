# Writes the small TypeScript project whose compilation tsc.cpuprofile.gz profiles (see README.md):
# 16 modules of generic classes, unions, a const table and a recursive conditional type.
import os

N = 16
os.makedirs("src", exist_ok=True)
with open("tsconfig.json", "w") as f:
    f.write('{ "compilerOptions": { "target": "es2020", "module": "commonjs", "strict": true, '
            '"outDir": "out", "lib": ["es2020"] }, "include": ["src"] }\n')
for m in range(N):
    lines = [f"export interface Shape{m} {{ kind: string; area(): number; }}"]
    for c in range(14):
        lines += [
            f"export class C{m}_{c}<T extends {{ id: number }}> implements Shape{m} {{",
            f"  kind = 'c{c}'; private items: Map<number, T> = new Map();",
            "  constructor(public readonly w: number, public readonly h: number) {}",
            f"  area(): number {{ return this.w * this.h + {c}; }}",
            "  add(x: T): this { this.items.set(x.id, x); return this; }",
            f"  map<U extends {{ id: number }}>(fn: (t: T) => U): C{m}_{c}<U> {{ const r = new C{m}_{c}<U>(this.w, this.h); "
            "for (const v of this.items.values()) r.add(fn(v)); return r; }",
            "}",
        ]
    lines.append(f"export type Union{m} = " + " | ".join(f"C{m}_{c}<{{id: number}}>" for c in range(14)) + ";")
    lines.append(f"export function total{m}(xs: Union{m}[]): number {{ return xs.reduce((a, s) => a + s.area(), 0); }}")
    lines.append(f"export const table{m} = {{ " + ", ".join(f"k{i}: [{i}, '{i}', {{ n: {i} }}] as const" for i in range(60)) + " };")
    lines.append(f"export type Deep{m}<T> = T extends [infer H, ...infer R] ? [H, ...Deep{m}<R>] : [];")
    lines.append(f"export const deep{m}: Deep{m}<[1,2,3,4,5,6,7,8,9,10]> = [1,2,3,4,5,6,7,8,9,10];")
    with open(f"src/m{m}.ts", "w") as f:
        f.write("\n".join(lines) + "\n")
with open("src/main.ts", "w") as f:
    f.write("".join(f"import * as m{m} from './m{m}';\n" for m in range(N)))
    f.write("export const result = (" + " + ".join(f"m{m}.total{m}([])" for m in range(N)) + ");\n")
