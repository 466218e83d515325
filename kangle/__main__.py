from kangle.cli import main

raise SystemExit(main())
