"""The event's web station (`kangle serve`): public standings and player pages, printable
score sheets with each table's private link, and result entry from the table's phone.
Imported by nothing but the `kangle` command."""
