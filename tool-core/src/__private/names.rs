//! The compile-time check that no two tools of a `registry![...]` share a name: const fns the
//! generated constants evaluate, panicking (a compile error) with the name.

/// Fails const evaluation, naming the tool, if one of the tool names `these` equals another of
/// them or one of the lists `earlier`.
#[track_caller]
pub const fn assert_unique_tool_names(earlier: &[&[&str]], these: &[&str]) {
    let mut item = 0;
    while item < these.len() {
        let name = these[item];
        let mut other = item + 1;
        while other < these.len() {
            if str_eq(name, these[other]) {
                duplicate_tool_name(name);
            }
            other += 1;
        }
        let mut list = 0;
        while list < earlier.len() {
            let mut other = 0;
            while other < earlier[list].len() {
                if str_eq(name, earlier[list][other]) {
                    duplicate_tool_name(name);
                }
                other += 1;
            }
            list += 1;
        }
        item += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[track_caller]
const fn duplicate_tool_name(name: &str) -> ! {
    const BEFORE: &[u8] = b"two tools in this registry![...] are named `";
    const AFTER: &[u8] = b"`: rename one with `#[tool(name = \"...\")]`, or, if a tool or \
        toolkit is listed twice, list it once";
    let mut message = [0u8; 512];
    let mut length = 0;
    let parts = [BEFORE, name.as_bytes(), AFTER];
    let mut part = 0;
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() && length < message.len() {
            message[length] = parts[part][i];
            length += 1;
            i += 1;
        }
        part += 1;
    }
    match core::str::from_utf8(message.split_at(length).0) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("two tools in this registry![...] have the same name"),
    }
}
