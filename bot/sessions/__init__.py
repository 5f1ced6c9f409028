"""Sessions: the record, its pure transitions and deadlines, the manager, the export."""
