/// Which of a container's two environments a request reaches.
///
/// A container has a development environment, whose schema changes as records are saved, and a
/// production environment, whose schema changes only when one is deployed from CloudKit Console.
/// The environment is a part of each request's path.
public enum CloudKitEnvironment: String, Hashable, Sendable, CaseIterable {
    /// The development environment: for building and testing an app.
    case development
    /// The production environment: what an app's users reach.
    case production
}

/// Which of a container's databases a request reaches.
///
/// The scope is a part of each request's path. The public database is readable by everyone; the
/// private and shared databases belong to the user whose web auth token signs the request, and
/// server-to-server keys reach the public database only.
public enum CloudKitDatabaseScope: String, Hashable, Sendable, CaseIterable {
    /// The container's public database.
    case `public`
    /// The signed-in user's private database.
    case `private`
    /// The zones other users share with the signed-in user.
    case shared
}
