//! Checking requests (and the fake's own answers) against Discord's
//! official OpenAPI description, `../shared/discord-api-spec/openapi.json`.
//!
//! A small validator for the JSON Schema subset that document uses: `type`
//! (one or a list, `"null"` for nullable), `$ref`, `allOf` / `anyOf` /
//! `oneOf`, `const`, `enum`, `properties`, `required`,
//! `additionalProperties`, `maxProperties`, `items`, `minItems`,
//! `maxItems`, `uniqueItems`, `minLength`, `maxLength`, `pattern` (the two
//! patterns the document holds), `minimum`, `maximum`. Formats are
//! annotations and are not checked, like JSON Schema says.

use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Where the spec lives, relative to this crate.
pub fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/discord-api-spec/openapi.json")
}

/// The spec, loaded once per test binary; `None` when the file is absent
/// (the check is then skipped, and says so once).
pub fn spec() -> Option<&'static Spec> {
    static SPEC: OnceLock<Option<Spec>> = OnceLock::new();
    SPEC.get_or_init(|| {
        let path = spec_path();
        match std::fs::read(&path) {
            Ok(bytes) => {
                let doc: Value = serde_json::from_slice(&bytes)
                    .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
                Some(Spec::new(doc))
            }
            Err(e) => {
                eprintln!(
                    "NOTE: Discord OpenAPI check skipped: {} not readable ({e}); requests are not validated against the spec",
                    path.display()
                );
                None
            }
        }
    })
    .as_ref()
}

const SNOWFLAKE: &str = "#/components/schemas/SnowflakeType";

#[derive(Clone, Debug)]
enum Seg {
    Lit(String),
    Param(String),
}

#[derive(Debug)]
struct Operation {
    method: String,
    template: String,
    segs: Vec<Seg>,
}

/// The loaded spec with its operations indexed.
pub struct Spec {
    doc: Value,
    ops: Vec<Operation>,
}

/// A request body as the fake received it.
pub enum SpecBody<'a> {
    None,
    Json(&'a Value),
    /// The form fields: `payload_json` parsed, and the names of file parts.
    Multipart {
        payload: Option<&'a Value>,
        files: Vec<String>,
    },
    Other(&'a str),
}

impl Spec {
    fn new(doc: Value) -> Spec {
        let mut ops = Vec::new();
        if let Some(paths) = doc["paths"].as_object() {
            for (template, item) in paths {
                let segs = template
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(|s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                        Some(p) => Seg::Param(p.to_string()),
                        None => Seg::Lit(s.to_string()),
                    })
                    .collect::<Vec<_>>();
                for method in ["get", "put", "post", "patch", "delete"] {
                    if item.get(method).is_some() {
                        ops.push(Operation {
                            method: method.into(),
                            template: template.clone(),
                            segs: segs.clone(),
                        });
                    }
                }
            }
        }
        Spec { doc, ops }
    }

    /// The operation for `method path` (path without `/api/v10`): literal
    /// segments win over parameters. Also returns the path parameters.
    fn find(&self, method: &str, path: &str) -> Option<(&Operation, Vec<(String, String)>)> {
        let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let method = method.to_ascii_lowercase();
        self.ops
            .iter()
            .filter(|o| o.method == method && o.segs.len() == parts.len())
            .filter_map(|o| {
                let mut params = Vec::new();
                let mut literal = 0;
                for (seg, part) in o.segs.iter().zip(&parts) {
                    match seg {
                        Seg::Lit(l) if l == part => literal += 1,
                        Seg::Lit(_) => return None,
                        Seg::Param(p) => params.push((p.clone(), percent_decode(part))),
                    }
                }
                Some((literal, o, params))
            })
            .max_by_key(|(literal, _, _)| *literal)
            .map(|(_, o, params)| (o, params))
    }

    fn op_value(&self, op: &Operation) -> &Value {
        &self.doc["paths"][&op.template][&op.method]
    }

    /// Check a request: the route exists, path and query parameters fit
    /// their schemas, and the body validates against the request schema.
    /// Returns the operation id, or what is wrong.
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        query: &[(String, String)],
        body: SpecBody<'_>,
    ) -> Result<String, Vec<String>> {
        let Some((op, path_params)) = self.find(method, path) else {
            return Err(vec![format!(
                "{method} {path}: no such operation in Discord's OpenAPI spec"
            )]);
        };
        let opv = self.op_value(op);
        let id = opv["operationId"].as_str().unwrap_or("?").to_string();
        let mut errs = Vec::new();
        let mut params: Vec<&Value> = Vec::new();
        for list in [&self.doc["paths"][&op.template]["parameters"], &opv["parameters"]] {
            if let Some(a) = list.as_array() {
                params.extend(a.iter());
            }
        }
        for (name, value) in &path_params {
            match params.iter().find(|p| p["in"] == "path" && p["name"] == name.as_str()) {
                Some(p) => self.validate(
                    &p["schema"],
                    &Value::String(value.clone()),
                    &format!("path {{{name}}}"),
                    &mut errs,
                ),
                None => errs.push(format!("path parameter {name} is not described")),
            }
        }
        for (name, value) in query {
            match params.iter().find(|p| p["in"] == "query" && p["name"] == name.as_str()) {
                Some(p) => {
                    let typed = self.typed_query_value(&p["schema"], value);
                    self.validate(&p["schema"], &typed, &format!("query {name}"), &mut errs)
                }
                None => errs.push(format!("unknown query parameter `{name}`")),
            }
        }
        let content = &opv["requestBody"]["content"];
        let required = opv["requestBody"]["required"].as_bool().unwrap_or(false);
        match body {
            SpecBody::None => {
                if required {
                    errs.push("a request body is required".into());
                }
            }
            SpecBody::Json(v) => match content.get("application/json") {
                Some(c) => self.validate(&c["schema"], v, "body", &mut errs),
                None => errs.push("this operation takes no JSON body".into()),
            },
            SpecBody::Multipart { payload, files } => match content.get("multipart/form-data") {
                Some(c) => {
                    // Discord reads the JSON fields from `payload_json`; the
                    // other parts are files.
                    let mut form = match payload {
                        Some(Value::Object(m)) => m.clone(),
                        Some(other) => {
                            errs.push(format!("payload_json is not an object: {other}"));
                            Map::new()
                        }
                        None => Map::new(),
                    };
                    for f in files {
                        form.insert(f, Value::String(String::new()));
                    }
                    self.validate(&c["schema"], &Value::Object(form), "form", &mut errs)
                }
                None => errs.push("this operation takes no multipart body".into()),
            },
            SpecBody::Other(ct) => errs.push(format!("unexpected body content type {ct}")),
        }
        if errs.is_empty() {
            Ok(id)
        } else {
            Err(errs
                .into_iter()
                .map(|e| format!("{method} {path} ({id}): {e}"))
                .collect())
        }
    }

    /// Check the fake's own answer against the documented response schema.
    pub fn check_response(&self, method: &str, path: &str, status: u16, body: Option<&Value>) -> Vec<String> {
        let Some((op, _)) = self.find(method, path) else {
            return vec![];
        };
        let responses = &self.op_value(op)["responses"];
        let key = status.to_string();
        let wildcard = format!("{}XX", status / 100);
        let Some(mut resp) = responses.get(&key).or_else(|| responses.get(&wildcard)) else {
            return vec![format!("{method} {path}: status {status} is not a documented response")];
        };
        if let Some(r) = resp.get("$ref").and_then(Value::as_str) {
            resp = self.resolve(r);
        }
        let mut errs = Vec::new();
        match (resp["content"].get("application/json"), body) {
            (Some(c), Some(b)) => self.validate(&c["schema"], b, "response", &mut errs),
            (Some(_), None) => errs.push("the documented response has a JSON body".into()),
            (None, Some(_)) => errs.push("the documented response has no body".into()),
            (None, None) => {}
        }
        errs.into_iter()
            .map(|e| format!("{method} {path} answered {status}: {e}"))
            .collect()
    }

    fn typed_query_value(&self, schema: &Value, value: &str) -> Value {
        let schema = match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => self.resolve(r),
            None => schema,
        };
        let types = type_list(schema);
        if types.iter().any(|t| t == "boolean") {
            match value {
                "true" | "True" => return Value::Bool(true),
                "false" | "False" => return Value::Bool(false),
                _ => {}
            }
        }
        if types.iter().any(|t| t == "integer" || t == "number") {
            if let Ok(n) = value.parse::<i64>() {
                return Value::from(n);
            }
        }
        Value::String(value.to_string())
    }

    fn resolve(&self, reference: &str) -> &Value {
        let pointer = reference.strip_prefix('#').unwrap_or(reference);
        self.doc
            .pointer(pointer)
            .unwrap_or_else(|| panic!("unresolvable $ref {reference}"))
    }

    /// Validate `v` against `schema`, appending errors (with `at`, a path).
    pub fn validate(&self, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                errs.push(format!("{at}: not allowed"));
                return;
            }
            Value::Object(s) => s,
            _ => return,
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            // Discord takes snowflakes as JSON numbers too (its own upload
            // example numbers new attachments `"id": 0`, and serenity does).
            if r == SNOWFLAKE && v.as_u64().is_some() {
                return;
            }
            self.validate(self.resolve(r), v, at, errs);
        }
        let types = type_list(schema);
        if !types.is_empty() && !types.iter().any(|t| is_type(v, t)) {
            errs.push(format!("{at}: expected {}, got {}", types.join(" or "), short(v)));
            return;
        }
        if let Some(c) = s.get("const") {
            if !json_eq(c, v) {
                errs.push(format!("{at}: expected {c}, got {}", short(v)));
            }
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            if !e.iter().any(|x| json_eq(x, v)) {
                errs.push(format!("{at}: {} is not one of {}", short(v), Value::Array(e.clone())));
            }
        }
        if let Some(all) = s.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.validate(sub, v, at, errs);
            }
        }
        if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            let results: Vec<Vec<String>> = any.iter().map(|sub| self.errors_of(sub, v, at)).collect();
            if !results.iter().any(Vec::is_empty) {
                errs.push(format!(
                    "{at}: matches none of the anyOf schemas; closest: {}",
                    closest(&results, at)
                ));
            }
        }
        if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
            let results: Vec<Vec<String>> = one.iter().map(|sub| self.errors_of(sub, v, at)).collect();
            let matching = results.iter().filter(|r| r.is_empty()).count();
            if matching == 0 {
                errs.push(format!(
                    "{at}: matches none of the oneOf schemas; closest: {}",
                    closest(&results, at)
                ));
            } else if matching > 1 {
                errs.push(format!(
                    "{at}: matches {matching} of the oneOf schemas, not exactly one: {}",
                    short(v)
                ));
            }
        }
        match v {
            Value::String(text) => {
                let n = text.chars().count() as u64;
                if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
                    if n > max {
                        errs.push(format!("{at}: {n} characters, at most {max} allowed"));
                    }
                }
                if let Some(min) = s.get("minLength").and_then(Value::as_u64) {
                    if n < min {
                        errs.push(format!("{at}: {n} characters, at least {min} needed"));
                    }
                }
                if let Some(p) = s.get("pattern").and_then(Value::as_str) {
                    if !matches_pattern(p, text) {
                        errs.push(format!("{at}: {text:?} does not match {p}"));
                    }
                }
            }
            Value::Number(n) => {
                if let Some(min) = s.get("minimum") {
                    if cmp_num(n, min) == Some(std::cmp::Ordering::Less) {
                        errs.push(format!("{at}: {n} is below the minimum {min}"));
                    }
                }
                if let Some(max) = s.get("maximum") {
                    if cmp_num(n, max) == Some(std::cmp::Ordering::Greater) {
                        errs.push(format!("{at}: {n} is above the maximum {max}"));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(max) = s.get("maxItems").and_then(Value::as_u64) {
                    if items.len() as u64 > max {
                        errs.push(format!("{at}: {} items, at most {max} allowed", items.len()));
                    }
                }
                if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
                    if (items.len() as u64) < min {
                        errs.push(format!("{at}: {} items, at least {min} needed", items.len()));
                    }
                }
                if s.get("uniqueItems") == Some(&Value::Bool(true)) {
                    for (i, a) in items.iter().enumerate() {
                        if items[..i].iter().any(|b| json_eq(a, b)) {
                            errs.push(format!("{at}: duplicate item {}", short(a)));
                        }
                    }
                }
                if let Some(item_schema) = s.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.validate(item_schema, item, &format!("{at}[{i}]"), errs);
                    }
                }
            }
            Value::Object(map) => {
                let props = s.get("properties").and_then(Value::as_object);
                if let Some(req) = s.get("required").and_then(Value::as_array) {
                    for r in req.iter().filter_map(Value::as_str) {
                        if !map.contains_key(r) {
                            errs.push(format!("{at}: missing required field `{r}`"));
                        }
                    }
                }
                if let Some(max) = s.get("maxProperties").and_then(Value::as_u64) {
                    if map.len() as u64 > max {
                        errs.push(format!("{at}: {} fields, at most {max} allowed", map.len()));
                    }
                }
                for (k, val) in map {
                    match props.and_then(|p| p.get(k)) {
                        Some(ps) => self.validate(ps, val, &format!("{at}.{k}"), errs),
                        None => match s.get("additionalProperties") {
                            Some(Value::Bool(false)) => errs.push(format!("{at}: unknown field `{k}`")),
                            Some(extra @ Value::Object(_)) => self.validate(extra, val, &format!("{at}.{k}"), errs),
                            _ => {}
                        },
                    }
                }
            }
            _ => {}
        }
    }

    fn errors_of(&self, schema: &Value, v: &Value, at: &str) -> Vec<String> {
        let mut e = Vec::new();
        self.validate(schema, v, at, &mut e);
        e
    }
}

fn type_list(schema: &Value) -> Vec<String> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts.iter().filter_map(|t| t.as_str().map(str::to_string)).collect(),
        _ => vec![],
    }
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => true,
    }
}

/// JSON equality with numbers compared by value (1 == 1.0).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            cmp_num(x, &Value::Number(y.clone())) == Some(std::cmp::Ordering::Equal)
        }
        _ => a == b,
    }
}

fn cmp_num(n: &serde_json::Number, bound: &Value) -> Option<std::cmp::Ordering> {
    let as_i128 = |v: &serde_json::Number| v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from));
    let Value::Number(b) = bound else { return None };
    match (as_i128(n), as_i128(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => n.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// The two patterns of the document, by hand (no regex engine needed).
fn matches_pattern(pattern: &str, text: &str) -> bool {
    match pattern {
        // Snowflakes: 0 or a number without leading zeros.
        "^(0|[1-9][0-9]*)$" => {
            text == "0" || (!text.is_empty() && !text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit()))
        }
        // Colours: #rgb or #rrggbb.
        "^#(([0-9a-fA-F]{2}){3}|([0-9a-fA-F]){3})$" => text
            .strip_prefix('#')
            .is_some_and(|h| (h.len() == 6 || h.len() == 3) && h.bytes().all(|b| b.is_ascii_hexdigit())),
        other => panic!("the validator does not know the pattern {other}; teach it"),
    }
}

/// The errors of the branch that came closest: one whose discriminating
/// `type` field matched, with the fewest errors.
fn closest(results: &[Vec<String>], at: &str) -> String {
    let wrong_kind = format!("{at}.type:");
    results
        .iter()
        .min_by_key(|r| (r.iter().any(|e| e.starts_with(&wrong_kind)), r.len()))
        .map(|r| r.join("; "))
        .unwrap_or_default()
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s
    }
}

/// Decode `%XX` escapes (path segments and query values).
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
