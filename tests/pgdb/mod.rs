//! A PostgreSQL database of one test's (or bench's) own, created through
//! `TEST_POSTGRES_URL` and dropped by [`PgDatabase::drop`]. Included by
//! the tests and benches that need one (`mod pgdb;`, or by `#[path]`).

/// A fresh database beside `TEST_POSTGRES_URL`'s, on the same server.
pub struct PgDatabase {
    /// The database's URL.
    pub url: String,
    name: String,
    admin: sqlx::AnyConnection,
}

impl PgDatabase {
    /// A fresh database named after `tag`; `None` when `TEST_POSTGRES_URL`
    /// is not set (it says that `what` is skipped).
    pub async fn create(tag: &str, what: &str) -> Option<PgDatabase> {
        use sqlx::{Connection, Executor};
        let Ok(admin_url) = std::env::var("TEST_POSTGRES_URL") else {
            println!("TEST_POSTGRES_URL is not set: {what} is skipped");
            return None;
        };
        sqlx::any::install_default_drivers();
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!(
            "orrery_{tag}_{}_{n}_{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_micros()
        );
        let mut admin = sqlx::AnyConnection::connect(&admin_url)
            .await
            .expect("connect to TEST_POSTGRES_URL");
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("create the test database");
        Some(PgDatabase {
            url: with_database(&admin_url, &name),
            name,
            admin,
        })
    }

    /// Drop the database (connections still open to it are closed).
    pub async fn drop(mut self) {
        use sqlx::Executor;
        self.admin
            .execute(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name).as_str())
            .await
            .expect("drop the test database");
    }
}

/// `url` (`postgres://user@host:port/db?params`) naming database `name`
/// instead, its parameters kept.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let after = base.find("://").map_or(0, |i| i + 3);
    let end = base[after..].find('/').map_or(base.len(), |i| after + i);
    let mut out = format!("{}/{name}", &base[..end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}
