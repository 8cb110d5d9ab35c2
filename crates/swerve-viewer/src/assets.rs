//! The page, embedded in the binary. These three files are all the server ever sends from
//! "disk": requests are matched against this table only, so no request path can reach the
//! file system.

/// (path, content type, body).
pub(crate) const ASSETS: [(&str, &str, &str); 3] = [
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/viewer.js", "text/javascript; charset=utf-8", include_str!("../web/viewer.js")),
    ("/viewer.css", "text/css; charset=utf-8", include_str!("../web/viewer.css")),
];
