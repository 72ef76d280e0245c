extension RecordSchema {
    /// Permissions that a role has on the records of a type: `GRANT READ, WRITE TO "_creator"`.
    ///
    /// A record type in the public database usually grants what Apple's examples do,
    /// ``publicDatabase``: its creator writes it, any iCloud user creates records of it, and
    /// everyone reads it.
    ///
    /// ```swift
    /// var grants = RecordSchema.Grant.publicDatabase
    /// grants.append(.init([.read, .write], to: "Editor"))   // a role made with CREATE ROLE Editor
    /// ```
    public struct Grant: Hashable, Sendable {
        /// What the role may do.
        public var permissions: Permissions

        /// The role: a built-in one (see ``RecordSchema/Role``) or one the schema creates.
        public var role: String

        /// Grants `permissions` to `role`.
        public init(_ permissions: Permissions, to role: String) {
            self.permissions = permissions
            self.role = role
        }

        /// The grants of a type in the public database, as Apple's examples give them:
        /// `WRITE` to `"_creator"`, `CREATE` to `"_icloud"`, `READ` to `"_world"`.
        public static let publicDatabase: [Grant] = [
            Grant(.write, to: Role.creator), Grant(.create, to: Role.icloud), Grant(.read, to: Role.world),
        ]

        /// The grants of `grants`, one for each role with all its permissions, by the role's name
        /// as `cktool export-schema` lists them; a role granted nothing is left out.
        static func merged(_ grants: [Grant]) -> [Grant] {
            var permissions: [String: Permissions] = [:]
            for grant in grants {
                permissions[grant.role, default: []].formUnion(grant.permissions)
            }
            return permissions.filter { !$0.value.isEmpty }
                .map { Grant($0.value, to: $0.key) }
                .sorted { SchemaName.listsBefore($0.role, $1.role) }
        }

        /// What a grant allows.
        public struct Permissions: OptionSet, Hashable, Sendable {
            /// The permissions as bits.
            public let rawValue: Int

            /// Permissions from their bits.
            public init(rawValue: Int) {
                self.rawValue = rawValue
            }

            /// `READ`: read records of the type.
            public static let read = Permissions(rawValue: 1)
            /// `CREATE`: create records of the type.
            public static let create = Permissions(rawValue: 2)
            /// `WRITE`: change and delete records of the type.
            public static let write = Permissions(rawValue: 4)
        }
    }
}
